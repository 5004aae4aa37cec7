import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LivePodclub, LivePoll, LiveSeat } from '#contract/live'
import { and, eq } from 'drizzle-orm'
import { registrations, seatWaitlist } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { openEventStream, type StreamEvent } from '../../testing/event-stream'
import { createAgent, createUser, loggedInMember, type TestApp } from '../../testing/test-app'
import { openTwoApps } from '../../testing/two-apps'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { promoteFromSeatWaitlist } from '../registrations/seat-waitlist.service'
import { createPollAs, operatorAgent, pollBody, requestCode } from '../polls/polls.testing'
import { STREAMS_PER_ADDRESS, STREAMS_PER_MEMBER } from './live.hub'

/**
 * The live stream over real HTTP, as browsers hold it: two app instances on one database (two
 * pools on PostgreSQL, as two processes; PGlite is one process by design), a write through one,
 * the event read from the other.
 */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
let urlA: string
let urlB: string
const streams: Array<{ close: () => void }> = []

beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
  urlA = `${await a.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/events/`
  urlB = `${await b.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/events/`
})
afterAll(async () => {
  for (const s of streams) s.close()
  await close()
})

async function stream(url: string, opts: Parameters<typeof openEventStream>[1] = {}) {
  const s = await openEventStream(url, opts)
  streams.push(s)
  return s
}
const cookieOf = (agent: ReturnType<typeof createAgent>) =>
  [...agent.jar].map(([name, c]) => `${name}=${c.value}`).join('; ')
const isPodclub = (id: number) => (e: StreamEvent) =>
  e.event === 'podclub' && (e.data as LivePodclub).id === id
const ready = (e: StreamEvent) => e.event === 'ready'
/** A member's own place once they hold a seat: `promoted` when it came from the line. */
const seatHeld = (podclubId: number, promoted: boolean): LiveSeat => ({
  podclub_id: podclubId,
  registered: true,
  waitlist_position: null,
  promoted,
})
/**
 * A podclub's event showing `seatsLeft`. Events come as the database commits, on PostgreSQL a
 * moment later in the other process: one raised by the test's set-up may arrive after the
 * stream opened, so a test looks for the state it expects, not for the first event.
 */
const showing = (id: number, seatsLeft: number) => (e: StreamEvent) =>
  isPodclub(id)(e) && (e.data as LivePodclub).seats_left === seatsLeft

describe('GET /events/', () => {
  it('sends a seat taken through one process to a client of the other within a second', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const watcher = await stream(urlB)
    expect(watcher.status).toBe(200)
    expect(watcher.headers['content-type']).toMatch(/^text\/event-stream/)
    await watcher.next(ready)

    const { user, agent } = await loggedInMember(a)
    const sentAt = Date.now()
    expect((await agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
    const event = await watcher.next(showing(podclub.id, 8), 1_000)
    expect(event.receivedAt - sentAt).toBeLessThan(1_000)
    expect(event.data).toEqual({
      id: podclub.id,
      status: 'upcoming',
      seats_left: 8,
      waitlist_count: 0,
      api_registered_usernames: { reserved: [user.username] },
      seat_waitlist: { waiting: [] },
    })
    expect(Number(event.id)).toBeGreaterThan(0)
  })

  it("reads a seat's podclub for its event from the feed's parts: its seats, not its texts", async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    // The feed's texts are kept in the process that will send the event.
    expect((await createAgent(b.app).get('/api/v1/all_upcoming_podclubs/')).statusCode).toBe(200)
    const watcher = await stream(urlB)
    await watcher.next(ready)
    const { agent } = await loggedInMember(a)

    // Every statement the event's process sends (on PGlite the seat change's own too).
    const client = (b.db as unknown as { $client: { query: (...args: unknown[]) => unknown } })
      .$client
    const query = client.query
    const sent: string[] = []
    client.query = function (this: unknown, first: unknown, ...rest: unknown[]) {
      sent.push(typeof first === 'string' ? first : String((first as { text?: string }).text))
      return query.call(this, first, ...rest)
    }
    try {
      expect((await agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
      await watcher.next(showing(podclub.id, 8), 1_000)
    } finally {
      client.query = query
    }
    // A podclub's texts join its podcast: no statement read them again for a seat.
    expect(sent.filter((text) => text.includes('"podcasts"'))).toEqual([])
  })

  it('sends nothing for a write that was rolled back', async () => {
    const host = await createUser(a)
    const rolledBack = await insertPodclub(a.db, host.id)
    const later = await insertPodclub(a.db, host.id)
    const member = await createUser(a)
    const watcher = await stream(urlB)
    await watcher.next(ready)

    await expect(
      transaction(a.deps, async (tx) => {
        await tx.insert(registrations).values({ podclubId: rolledBack.id, userId: member.id })
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    // A write committed after it arrives; the rolled-back one never did.
    const { agent } = await loggedInMember(a)
    await agent.post(`/api/v1/register/${later.id}/`)
    await watcher.next(showing(later.id, 8), 1_000)
    expect(
      watcher.events
        .filter(isPodclub(rolledBack.id))
        .map((e) => (e.data as LivePodclub).seats_left),
    ).not.toContain(8)
  })

  it('replays what a client missed when it reconnects with Last-Event-ID', async () => {
    const host = await createUser(a)
    const [first, second] = [await insertPodclub(a.db, host.id), await insertPodclub(a.db, host.id)]
    const watcher = await stream(urlA)
    const lastSeen = (await watcher.next(ready)).id!
    watcher.close()

    const { agent } = await loggedInMember(a)
    await agent.post(`/api/v1/register/${first.id}/`)
    await agent.post(`/api/v1/register/${second.id}/`)

    const back = await stream(urlB, { lastEventId: lastSeen })
    const replayed = await back.next(showing(second.id, 8))
    await back.next(showing(first.id, 8))
    const resumed = await back.next(ready)
    expect(Number(resumed.id)).toBeGreaterThanOrEqual(Number(replayed.id))
  })

  it('asks a client to reload when its Last-Event-ID is not one it can replay from', async () => {
    const watcher = await stream(urlA, { lastEventId: '999999999' })
    await watcher.next((e) => e.event === 'reload')
  })

  it('tells a member, and only them, of their own place: a promotion from the seat waitlist', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const seated = await Promise.all(Array.from({ length: 9 }, () => loggedInMember(a)))
    for (const { agent } of seated) await agent.post(`/api/v1/register/${podclub.id}/`)
    const waiting = await loggedInMember(a)
    expect(
      (await waiting.agent.post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`)).statusCode,
    ).toBe(200)

    const mine = await stream(urlB, { cookie: cookieOf(waiting.agent) })
    const visitor = await stream(urlB)
    const other = await stream(urlB, { cookie: cookieOf(seated[1]!.agent) })
    await Promise.all([mine.next(ready), visitor.next(ready), other.next(ready)])

    await seated[0]!.agent.post(`/api/v1/register/${podclub.id}/`) // gives the seat back
    const seat = await mine.next((e) => e.event === 'seat' && (e.data as LiveSeat).promoted, 1_000)
    expect(seat.data).toEqual(seatHeld(podclub.id, true))
    const seen = (await visitor.next((e) => e.id === seat.id && e.event === 'podclub'))
      .data as LivePodclub
    expect(seen.api_registered_usernames.reserved).toContain(waiting.user.username)
    expect(seen.seats_left).toBe(0)
    expect(seen.seat_waitlist.waiting).toEqual([])
    // Everyone sees the podclub; nobody else hears of this member's place.
    await other.next((e) => e.id === seat.id && e.event === 'podclub')
    expect(visitor.events.filter((e) => e.event === 'seat')).toEqual([])
    // The other member hears of their own seat at most (an event of the set-up, arriving late).
    for (const e of other.events.filter((e) => e.event === 'seat')) {
      expect(e.data).toEqual(seatHeld(podclub.id, false))
    }
  })

  it('tells a member promoted when their joining the line and the freed seat come as one change', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const waiting = await loggedInMember(a)
    const mine = await stream(urlB, { cookie: cookieOf(waiting.agent) })
    await mine.next(ready)
    const seated = await Promise.all(Array.from({ length: 9 }, () => loggedInMember(a)))
    for (const { agent } of seated) await agent.post(`/api/v1/register/${podclub.id}/`)
    await mine.next(showing(podclub.id, 0))

    // The process never sees the member in line: one transaction queues them and frees a seat.
    await transaction(a.deps, async (tx) => {
      await tx.insert(seatWaitlist).values({ podclubId: podclub.id, userId: waiting.user.id })
      await tx
        .delete(registrations)
        .where(
          and(
            eq(registrations.podclubId, podclub.id),
            eq(registrations.userId, seated[0]!.user.id),
          ),
        )
      expect(await promoteFromSeatWaitlist(tx, a.deps, podclub.id)).toEqual([waiting.user.id])
    })
    const seat = await mine.next((e) => e.event === 'seat' && (e.data as LiveSeat).registered)
    expect(seat.data).toEqual(seatHeld(podclub.id, true))
  })

  it('does not call a seat taken directly a promotion', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const member = await loggedInMember(a)
    const mine = await stream(urlB, { cookie: cookieOf(member.agent) })
    await mine.next(ready)
    await member.agent.post(`/api/v1/register/${podclub.id}/`)
    const seat = await mine.next((e) => e.event === 'seat' && (e.data as LiveSeat).registered)
    expect((seat.data as LiveSeat).promoted).toBe(false)
  })

  it("carries to a visitor nothing beyond the feed's own fields", async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const visitor = await stream(urlA)
    await visitor.next(ready)
    const { agent } = await loggedInMember(a)
    await agent.post(`/api/v1/register/${podclub.id}/`)
    await agent.post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`).catch(() => undefined)
    const event = await visitor.next(isPodclub(podclub.id))
    expect(Object.keys(event.data as object).sort()).toEqual(
      [
        'api_registered_usernames',
        'id',
        'seat_waitlist',
        'seats_left',
        'status',
        'waitlist_count',
      ].sort(),
    )
    expect(JSON.stringify(visitor.events)).not.toMatch(/@|email/)
  })

  it('sends the votes of a poll as they are counted', async () => {
    const operator = await operatorAgent(a)
    const poll = await createPollAs(operator, pollBody(a))
    const watcher = await stream(urlB)
    await watcher.next(ready)
    const voter = await createUser(a)
    await a.deliverAllMail() // what earlier tests queued, so the code's mail is in the next batch
    const code = await requestCode(a, poll.id, voter.email)
    const option = poll.results[1]!
    const res = await createAgent(a.app).post(`/api/v1/polls/${poll.id}/cast/`, {
      voteCode: code,
      optionId: option.id,
    })
    expect(res.statusCode, res.body).toBe(200)
    const event = await watcher.next((e) => e.event === 'poll', 1_000)
    const live = event.data as LivePoll
    expect(live.id).toBe(poll.id)
    expect(live.total_votes).toBe(1)
    expect(live.results[0]).toMatchObject({ id: option.id, votes: 1, percentage: 100 })
  })

  it("ends a member's stream when they log out, in every process", async () => {
    const { agent } = await loggedInMember(a)
    const onB = await stream(urlB, { cookie: cookieOf(agent) })
    await onB.next(ready)
    expect((await agent.post('/api/v1/logout/')).statusCode).toBe(200)
    await onB.whenEnded(1_000)
  })

  it('answers 429 beyond the streams one member may hold, and one address', async () => {
    const { agent } = await loggedInMember(a)
    const cookie = cookieOf(agent)
    const held = await Promise.all(
      Array.from({ length: STREAMS_PER_MEMBER }, () => stream(urlA, { cookie })),
    )
    expect(held.map((s) => s.status)).toEqual(held.map(() => 200))
    const gauge = /^podclub_live_streams (\d+)$/m.exec((await a.app.metrics.render()).text)
    expect(Number(gauge?.[1])).toBeGreaterThanOrEqual(STREAMS_PER_MEMBER)
    const refused = await stream(urlA, { cookie })
    expect(refused.status).toBe(429)
    expect(JSON.parse(refused.body!)).toMatchObject({ code: 'RATE_LIMITED' })
    for (const s of held) s.close()

    // The address: one more than it may hold (other tests' streams may count too).
    const open = await Promise.all(
      Array.from({ length: STREAMS_PER_ADDRESS + 1 }, () => stream(urlA)),
    )
    expect(open.some((s) => s.status === 429)).toBe(true)
    for (const s of open) s.close()
  })

  it('answers 400 to a request that does not ask for an event stream', async () => {
    const res = await createAgent(a.app).get('/api/v1/events/')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('ends every stream when the server stops', async () => {
    const t = await openTwoApps()
    const url = `${await t.a.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/events/`
    const watcher = await stream(url)
    await watcher.next(ready)
    const closing = t.close()
    await watcher.whenEnded(2_000)
    await closing
  })
})
