import { keyedVersion, readCacheVersions } from '../../db/cache-versions'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podclubs, registrations, seatWaitlist } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from './podclubs.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

/** The named versions, as an object to compare. */
async function versions(names: string[]) {
  return Object.fromEntries(await readCacheVersions(t.db, names))
}

describe('the podclubs and seats versions', () => {
  it('rise with each committed change the feed shows, whoever writes it, and not with a rolled-back one', async () => {
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const other = await insertPodclub(t.db, host.id)
    const names = [
      'podclubs',
      'seats',
      keyedVersion('seats', podclub.id),
      keyedVersion('seats', other.id),
      keyedVersion('member_seats', member.id),
      keyedVersion('member_seats', host.id),
    ]
    const start = await versions(names)
    const raised = (by: Record<string, number>) =>
      Object.fromEntries(names.map((n) => [n, start[n]! + (by[n] ?? 0)]))
    // Plain writes, through no service: the database raises the versions itself. A seat raises
    // its podclub's seats and its member's, nothing else: the podclubs' texts and every other
    // podclub's seats stay cached.
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
    const seatOf = { [names[2]!]: 1, [names[4]!]: 1 }
    expect(await versions(names)).toEqual(raised(seatOf))
    await t.db.update(podclubs).set({ location: 'nyc' }).where(eq(podclubs.id, podclub.id))
    expect(await versions(names)).toEqual(raised({ ...seatOf, podclubs: 1 }))
    await expect(
      transaction(t.deps, async (tx) => {
        await tx.delete(registrations).where(eq(registrations.podclubId, podclub.id))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await versions(names)).toEqual(raised({ ...seatOf, podclubs: 1 }))
    // A transaction raises each once, however many rows it changes.
    await transaction(t.deps, async (tx) => {
      await tx.delete(registrations).where(eq(registrations.podclubId, podclub.id))
      await tx.insert(seatWaitlist).values({ podclubId: podclub.id, userId: host.id })
      await tx.update(podclubs).set({ location: 'zoom' }).where(eq(podclubs.id, podclub.id))
      await tx.update(podclubs).set({ location: 'nyc' }).where(eq(podclubs.id, podclub.id))
    })
    expect(await versions(names)).toEqual(raised({ [names[2]!]: 2, [names[4]!]: 2, podclubs: 2 }))
  })

  it('raise the rows of both podclubs and both members when a seat moves, and the whole set on a truncate', async () => {
    const [host, one, two] = [await createUser(t), await createUser(t), await createUser(t)]
    const first = await insertPodclub(t.db, host.id)
    const second = await insertPodclub(t.db, host.id)
    const [seat] = await t.db
      .insert(registrations)
      .values({ podclubId: first.id, userId: one.id })
      .returning({ id: registrations.id })
    const names = [
      'seats',
      'member_seats',
      keyedVersion('seats', first.id),
      keyedVersion('seats', second.id),
      keyedVersion('member_seats', one.id),
      keyedVersion('member_seats', two.id),
    ]
    const start = await versions(names)
    await t.db
      .update(registrations)
      .set({ podclubId: second.id, userId: two.id })
      .where(eq(registrations.id, seat!.id))
    expect(await versions(names)).toEqual({
      ...start,
      [names[2]!]: start[names[2]!]! + 1,
      [names[3]!]: start[names[3]!]! + 1,
      [names[4]!]: start[names[4]!]! + 1,
      [names[5]!]: start[names[5]!]! + 1,
    })

    const before = await versions(names)
    await t.db.execute('truncate seat_waitlist')
    expect(await versions(names)).toEqual({ ...before, seats: before.seats! + 1 })
    await t.db.execute('truncate registrations')
    expect(await versions(names)).toEqual({
      ...before,
      seats: before.seats! + 2,
      member_seats: before.member_seats! + 1,
    })
  })
})
