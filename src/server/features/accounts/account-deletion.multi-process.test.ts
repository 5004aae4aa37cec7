import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { LAST_SUPERUSER_MESSAGE } from '#contract/profile'
import { outboxMessages, registrations, seatWaitlist, users } from '../../db/schema/index'
import { openTwoApps } from '../../testing/two-apps'
import { createAgent, createUser, loggedInMember, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'

/**
 * Two app instances on one database (on PostgreSQL each with its own pool), as two processes:
 * a member deleting their account while seats change around them, or while another super user
 * deletes theirs, ends with the club's rules intact.
 */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const memberOn = (app: TestApp) => loggedInMember(a, { on: app })
type Member = Awaited<ReturnType<typeof memberOn>>
const deleteAccount = (m: Member) =>
  m.agent.post('/api/v1/profile/delete/', { password: m.user.password })

const seatsOf = async (podclubId: number) =>
  (
    await a.db
      .select({ userId: registrations.userId })
      .from(registrations)
      .where(eq(registrations.podclubId, podclubId))
  ).map((r) => r.userId)

describe('deleting an account across app processes', () => {
  it('lets exactly one of the last two super users go when both delete at once', async () => {
    const [first, second] = await Promise.all([memberOn(a), memberOn(b)])
    await a.db
      .update(users)
      .set({ isSuperuser: true })
      .where(inArray(users.id, [first!.user.id, second!.user.id]))

    const answers = await Promise.all([deleteAccount(first!), deleteAccount(second!)])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409])
    expect(answers.find((r) => r.statusCode === 409)!.json().detail).toBe(LAST_SUPERUSER_MESSAGE)
    const [{ n } = { n: 0 }] = await a.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.isSuperuser, true), sql`${users.deletedAt} is null`))
    expect(n).toBe(1)
  })

  it('leaves the member no seat and sells no 10th while cancels promote them during the deletion', async () => {
    const host = await createUser(a)
    const leaving = await memberOn(b)
    const next = await memberOn(a)
    const clubs = []
    for (let c = 0; c < 3; c++) {
      const podclub = await insertPodclub(a.db, host.id)
      const holders: Member[] = []
      for (let i = 0; i < 9; i++) {
        const m = await memberOn(i % 2 ? a : b)
        expect((await m.agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
        holders.push(m)
      }
      // The leaving member is first in line, the next one second.
      for (const m of [leaving, next]) {
        const joined = await m.agent.post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`)
        expect(joined.statusCode).toBe(200)
      }
      clubs.push({ podclub, holders })
    }

    // In each podclub a seat is given back (which promotes the first in line) while the first
    // in line deletes their account, through the other instance.
    const answers = await Promise.all([
      deleteAccount(leaving),
      ...clubs.map(({ podclub, holders }) =>
        holders[0]!.agent.post(`/api/v1/register/${podclub.id}/`),
      ),
    ])
    expect(answers.map((r) => r.statusCode)).toEqual(Array(answers.length).fill(200))

    for (const { podclub, holders } of clubs) {
      const seats = await seatsOf(podclub.id)
      expect(seats).toHaveLength(9)
      expect(seats).not.toContain(leaving.user.id)
      expect(seats).toContain(next.user.id)
      expect(seats).not.toContain(holders[0]!.user.id)
    }
    expect(
      await a.db.select().from(seatWaitlist).where(eq(seatWaitlist.userId, leaving.user.id)),
    ).toEqual([])
    expect(
      await a.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.toAddress, leaving.user.email)),
    ).toEqual([])
  })

  it('leaves the member no seat while their own seat requests race the deletion', async () => {
    const host = await createUser(a)
    const leaving = await memberOn(a)
    const clubs = await Promise.all(Array.from({ length: 4 }, () => insertPodclub(a.db, host.id)))
    // The seat requests come from a second browser of the same member, on the other instance.
    const elsewhere = createAgent(b.app)
    await elsewhere.login(leaving.user.username, leaving.user.password)
    const answers = await Promise.all([
      deleteAccount(leaving),
      ...clubs.map((podclub) => elsewhere.post(`/api/v1/register/${podclub.id}/`)),
    ])
    expect(answers[0]!.statusCode).toBe(200)
    // Each seat request came before the deletion (and its seat was given back) or after it (no
    // session, or no member any more).
    for (const answer of answers.slice(1)) expect([200, 401, 404]).toContain(answer.statusCode)
    for (const podclub of clubs) expect(await seatsOf(podclub.id)).not.toContain(leaving.user.id)
  })
})
