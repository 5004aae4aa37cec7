import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, count, eq } from 'drizzle-orm'
import { registrations, seatWaitlist } from '../../db/schema/index'
import { openTwoApps } from '../../testing/two-apps'
import { createUser, type TestApp, loggedInMember } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'

/**
 * Two app instances on one database (on PostgreSQL each with its own pool): cancels and joins
 * racing through both never sell a 10th seat, never promote anyone twice, and keep the line.
 */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const memberOn = (app: TestApp) => loggedInMember(a, { on: app })

describe('the seat waitlist across app processes', () => {
  it('keeps 9 seats and the order of the line while 20 cancels and joins race', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const holders = []
    for (let i = 0; i < 9; i++) {
      const m = await memberOn(i % 2 ? a : b)
      expect((await m.agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
      holders.push(m)
    }
    // Ten in line before the race, in a known order.
    const line = []
    for (let i = 0; i < 10; i++) {
      const m = await memberOn(i % 2 ? b : a)
      expect((await m.agent.post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`)).statusCode).toBe(
        200,
      )
      line.push(m)
    }
    const joiners = await Promise.all(Array.from({ length: 11 }, (_, i) => memberOn(i % 2 ? a : b)))

    // 9 cancels and 11 joins at once, spread over both instances.
    const answers = await Promise.all([
      ...holders.map((m) => m.agent.post(`/api/v1/register/${podclub.id}/`)),
      ...joiners.map((m) => m.agent.post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`)),
    ])
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200))

    const seats = await a.db
      .select({ userId: registrations.userId })
      .from(registrations)
      .where(eq(registrations.podclubId, podclub.id))
    expect(seats).toHaveLength(9)
    // The first nine in line got the seats: nobody skipped, nobody twice.
    expect(seats.map((s) => s.userId).sort((x, y) => x - y)).toEqual(
      line
        .slice(0, 9)
        .map((m) => m.user.id)
        .sort((x, y) => x - y),
    )
    const waiting = await a.db
      .select({ userId: seatWaitlist.userId })
      .from(seatWaitlist)
      .where(eq(seatWaitlist.podclubId, podclub.id))
      .orderBy(asc(seatWaitlist.id))
    expect(waiting[0]!.userId).toBe(line[9]!.user.id)
    expect(
      waiting
        .slice(1)
        .map((w) => w.userId)
        .sort((x, y) => x - y),
    ).toEqual(joiners.map((j) => j.user.id).sort((x, y) => x - y))
    // Exactly one 'You're in' e-mail per promoted member.
    const mail = await a.deliverAllMail()
    const youreIn = mail.filter((m) => m.subject.startsWith("You're in"))
    expect(youreIn.map((m) => m.to).sort()).toEqual(
      line
        .slice(0, 9)
        .map((m) => m.user.email)
        .sort(),
    )
    const [{ n } = { n: -1 }] = await a.db
      .select({ n: count() })
      .from(registrations)
      .where(eq(registrations.podclubId, podclub.id))
    expect(n).toBe(9)
  })
})
