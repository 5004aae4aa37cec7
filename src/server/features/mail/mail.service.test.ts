import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, Db } from '../../db/client'
import { outboxAttempts, outboxMessages } from '../../db/schema/index'
import { createTestDatabase } from '../../testing/test-db'
import { enqueueMail, listEmailActivity } from './mail.service'

/** Mail enqueued in a transaction of its own, as a service's would be. */
const enqueueInOwnTransaction = (db: Db, mail: Parameters<typeof enqueueMail>[1]) =>
  db.transaction((tx) => enqueueMail(tx, mail))

let database: Database
let db: Db

beforeAll(async () => {
  database = await createTestDatabase()
  db = database.db
})

afterAll(async () => {
  await database?.close()
})

beforeEach(async () => {
  await db.delete(outboxMessages)
})

async function attempt(messageId: number, success: boolean, at: string) {
  await db
    .insert(outboxAttempts)
    .values({ messageId, success, attemptedAt: new Date(at), error: success ? null : 'refused' })
}

describe('enqueueMail', () => {
  it('writes pending rows, due at once, and returns their ids in order', async () => {
    const ids = await enqueueInOwnTransaction(db, [
      { to: 'ada@example.org', subject: 'One', text: 'First', kind: 'test' },
      {
        to: 'bob@example.org',
        subject: 'Two',
        text: 'Second',
        html: '<p>Second</p>',
        kind: 'test',
      },
    ])

    expect(ids).toHaveLength(2)
    const rows = await db.select().from(outboxMessages).orderBy(outboxMessages.id)
    expect(rows.map((r) => r.id)).toEqual(ids)
    expect(rows).toMatchObject([
      { toAddress: 'ada@example.org', subject: 'One', htmlBody: null, status: 'pending' },
      { toAddress: 'bob@example.org', htmlBody: '<p>Second</p>', status: 'pending', attempts: 0 },
    ])
    // Due for any worker clock, even one fixed in the past.
    expect(rows.every((r) => r.nextAttemptAt.getTime() <= new Date('2000-01-01').getTime())).toBe(
      true,
    )
  })

  it('writes nothing for an empty list', async () => {
    expect(await enqueueInOwnTransaction(db, [])).toEqual([])
    expect(await db.select().from(outboxMessages)).toHaveLength(0)
  })
})

describe('listEmailActivity', () => {
  it('lists tried messages by latest attempt, newest first, with their outcome', async () => {
    const [delivered, retrying, failed, untried] = await enqueueInOwnTransaction(
      db,
      ['delivered', 'retrying', 'failed', 'untried'].map((s) => ({
        to: `${s}@example.org`,
        subject: s,
        text: s,
        kind: 'test',
      })),
    )
    await attempt(delivered!, false, '2030-01-01T10:00:00Z')
    await attempt(delivered!, true, '2030-01-01T10:01:00Z')
    await db
      .update(outboxMessages)
      .set({ status: 'delivered', attempts: 2 })
      .where(eq(outboxMessages.id, delivered!))
    await attempt(retrying!, false, '2030-01-01T10:03:00Z')
    await db.update(outboxMessages).set({ attempts: 1 }).where(eq(outboxMessages.id, retrying!))
    await attempt(failed!, false, '2030-01-01T10:02:00Z')
    await db
      .update(outboxMessages)
      .set({ status: 'failed', attempts: 1 })
      .where(eq(outboxMessages.id, failed!))
    expect(untried).toBeDefined()

    expect(await listEmailActivity(db)).toEqual([
      {
        date_created: '2030-01-01T10:03:00.000Z',
        email: 'retrying@example.org',
        subject: 'retrying',
        success: false,
      },
      {
        date_created: '2030-01-01T10:02:00.000Z',
        email: 'failed@example.org',
        subject: 'failed',
        success: false,
      },
      {
        date_created: '2030-01-01T10:01:00.000Z',
        email: 'delivered@example.org',
        subject: 'delivered',
        success: true,
      },
    ])
    expect((await listEmailActivity(db, 1)).map((a) => a.subject)).toEqual(['retrying'])
  })
})
