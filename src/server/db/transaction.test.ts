import { count } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from './schema/index'
import { transaction } from './transaction'
import { enqueueMail } from '../features/mail/mail.service'
import { buildTestApp, type TestApp } from '../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const mail = { to: 'a@example.com', subject: 's', text: 't', kind: 'test' }

describe('transaction()', () => {
  it('refuses the plain db inside an open transaction instead of deadlocking', async () => {
    await expect(
      transaction(t.deps, async () => {
        await t.db.select({ n: count() }).from(users)
      }),
    ).rejects.toThrow(/inside an open transaction: use its tx handle/)
    // Outside one, the same db works.
    expect((await t.db.select({ n: count() }).from(users))[0]!.n).toBeGreaterThanOrEqual(0)
  })

  it('wakes the outbox after a commit that queued mail, and not after a rollback', async () => {
    const before = t.outboxWakes()
    await transaction(t.deps, async (tx) => {
      await enqueueMail(tx, mail)
    })
    expect(t.outboxWakes()).toBe(before + 1)
    await transaction(t.deps, async (tx) => {
      await tx.select({ n: count() }).from(users)
    })
    expect(t.outboxWakes()).toBe(before + 1)
    await expect(
      transaction(t.deps, async (tx) => {
        await enqueueMail(tx, mail)
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(t.outboxWakes()).toBe(before + 1)
  })
})
