import { readCacheVersions } from '../../db/cache-versions'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podclubs, registrations } from '../../db/schema/index'
import { openTwoApps } from '../../testing/two-apps'
import { createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from './podclubs.fixtures'

let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const lockRow = (db: TestApp['db'], podclubId: number) =>
  db.select({ id: podclubs.id }).from(podclubs).where(eq(podclubs.id, podclubId)).for('update')

describe('the seats version on one PostgreSQL shared by two processes', () => {
  it('is raised at commit, so a change in one podclub never holds up another podclub’s lock', async () => {
    const host = await createUser(a)
    const [one, two] = [await createUser(a), await createUser(a)]
    const first = await insertPodclub(a.db, host.id)
    const second = await insertPodclub(a.db, host.id)
    const start = (await readCacheVersions(a.db)).seats

    // As an account deletion does: a seat change in the first podclub, then the second's lock,
    // while a seat change in the second podclub holds that lock and writes its seat.
    let changedFirst!: () => void
    const firstChanged = new Promise<void>((resolve) => (changedFirst = resolve))
    let lockedSecond!: () => void
    const secondLocked = new Promise<void>((resolve) => (lockedSecond = resolve))
    const deletion = a.db.transaction(async (tx) => {
      await tx.insert(registrations).values({ podclubId: first.id, userId: one.id })
      changedFirst()
      await secondLocked
      await lockRow(tx, second.id)
    })
    const seatChange = b.db.transaction(async (tx) => {
      await firstChanged
      await lockRow(tx, second.id)
      lockedSecond()
      await new Promise((resolve) => setTimeout(resolve, 200))
      await tx.insert(registrations).values({ podclubId: second.id, userId: two.id })
    })

    await expect(Promise.all([deletion, seatChange])).resolves.toEqual([undefined, undefined])
    expect((await readCacheVersions(a.db)).seats).toBe(start + 2)
  })
})
