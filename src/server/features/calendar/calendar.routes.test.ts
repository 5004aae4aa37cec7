import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getProfileResponseSchema, resetCalendarLinkResponseSchema } from '#contract/profile'
import { podclubs, users } from '../../db/schema/index'
import { eq } from 'drizzle-orm'
import { parseIcs } from '../../testing/ics'
import {
  buildTestApp,
  createAgent,
  createUser,
  type TestApp,
  loggedInMember,
} from '../../testing/test-app'
import { limitKeys } from '../../plugins/rate-limit'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { calendarLimits } from './calendar.routes'
import { calendarFeedUrl, recordCalendarTokens } from './calendar.service'
import { fixedClock } from '../../lib/clock'

let t: TestApp
/** Starts now and moves only when a test moves it. */
const clock = fixedClock(new Date())
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

const member = () => loggedInMember(t)

/** The path of a calendar URL under APP_URL, for inject(). */
const pathOf = (url: string) => new URL(url).pathname

describe('the personal calendar feed', () => {
  it('lists exactly the upcoming podclubs the member holds a seat in or hosts', async () => {
    const me = await member()
    const other = await member()
    const seat = await insertPodclub(t.db, other.user.id)
    const hosted = await insertPodclub(t.db, me.user.id)
    const notMine = await insertPodclub(t.db, other.user.id)
    const done = await insertPodclub(t.db, me.user.id, {
      status: 'completed',
      completedAt: new Date(),
      startsAt: new Date(Date.now() - 86_400_000),
    })
    expect((await me.agent.post(`/api/v1/register/${seat.id}/`)).statusCode).toBe(200)

    const profile = getProfileResponseSchema.parse((await me.agent.get('/api/v1/profile/')).json())
    const url = profile.data.calendar_url
    expect(url).toMatch(/^http:\/\/podclub\.test\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    // The same URL every time the profile is read.
    const again = getProfileResponseSchema.parse((await me.agent.get('/api/v1/profile/')).json())
    expect(again.data.calendar_url).toBe(url)

    // Calendar apps fetch it without a session.
    const feed = await t.app.inject({ method: 'GET', url: pathOf(url) })
    expect(feed.statusCode).toBe(200)
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8')
    expect(feed.headers['cache-control']).toBe('private, max-age=900')
    const uids = parseIcs(feed.body).events.map((e) => e.uid)
    expect(uids.sort()).toEqual(
      [seat.id, hosted.id].map((id) => `podclub-${id}@podclub.test`).sort(),
    )
    expect(uids).not.toContain(`podclub-${notMine.id}@podclub.test`)
    expect(uids).not.toContain(`podclub-${done.id}@podclub.test`)

    // A poller that has it gets 304, though a file made later carries a later DTSTAMP.
    clock.advance(61_000)
    const remade = await t.app.inject({ method: 'GET', url: pathOf(url) })
    expect(remade.body).not.toBe(feed.body)
    expect(remade.headers.etag).toBe(feed.headers.etag)
    const cached = await t.app.inject({
      method: 'GET',
      url: pathOf(url),
      headers: { 'if-none-match': String(feed.headers.etag) },
    })
    expect(cached.statusCode).toBe(304)

    // Once the seat is given back, the feed drops it.
    await me.agent.post(`/api/v1/register/${seat.id}/`)
    const after = await t.app.inject({ method: 'GET', url: pathOf(url) })
    expect(parseIcs(after.body).events.map((e) => e.uid)).toEqual([
      `podclub-${hosted.id}@podclub.test`,
    ])
  })

  it("dies on 'reset link': the old URL answers 404, the new one works", async () => {
    const me = await member()
    await insertPodclub(t.db, me.user.id)
    const old = getProfileResponseSchema.parse((await me.agent.get('/api/v1/profile/')).json()).data
      .calendar_url
    const reset = await me.agent.post('/api/v1/profile/calendar_link/')
    expect(reset.statusCode).toBe(200)
    const fresh = resetCalendarLinkResponseSchema.parse(reset.json()).data.calendar_url
    expect(fresh).not.toBe(old)
    expect((await t.app.inject({ method: 'GET', url: pathOf(old) })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: pathOf(fresh) })).statusCode).toBe(200)
    const profile = getProfileResponseSchema.parse((await me.agent.get('/api/v1/profile/')).json())
    expect(profile.data.calendar_url).toBe(fresh)
    expect((await createAgent(t.app).post('/api/v1/profile/calendar_link/')).statusCode).toBe(401)
  })

  it('is recorded at login and, under a new secret, at start, never by reading the profile', async () => {
    const me = await member()
    await insertPodclub(t.db, me.user.id)
    const url = getProfileResponseSchema.parse((await me.agent.get('/api/v1/profile/')).json()).data
      .calendar_url
    expect((await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200)

    // A server started with another SESSION_SECRET records every member's link anew.
    const otherSecret = 'another-secret-another-secret-0123456789'
    expect(await recordCalendarTokens({ ...t.deps, sessionSecret: otherSecret })).toBeGreaterThan(0)
    expect(await recordCalendarTokens({ ...t.deps, sessionSecret: otherSecret })).toBe(0)
    const [row] = await t.db
      .select({ key: users.calendarKey })
      .from(users)
      .where(eq(users.id, me.user.id))
    const next = calendarFeedUrl({ ...t.deps, sessionSecret: otherSecret }, me.user.id, row!.key)
    expect(next).not.toBe(url)
    expect((await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: pathOf(next) })).statusCode).toBe(200)

    // Back to this server's secret, as its start would.
    await recordCalendarTokens(t.deps)
    expect((await t.app.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200)
  })

  it('answers 404 for anything that is not a current token', async () => {
    for (const path of [
      '/calendar/x.ics',
      '/calendar/' + 'A'.repeat(43) + '.ics',
      '/calendar/' + 'A'.repeat(43),
      '/calendar/%00.ics',
      '/calendar/' + 'é'.repeat(43) + '.ics',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: path })
      expect(res.statusCode, path).toBe(404)
      expect(res.headers['content-type']).toMatch(/application\/json/)
    }
  })
})

describe('the feed rate limit', () => {
  it('answers 429 to an address fetching feeds far more often than calendar services do', async () => {
    const limited = await buildTestApp({ rateLimits: true })
    try {
      const user = await createUser(limited)
      const agent = createAgent(limited.app)
      await agent.login(user.username, user.password)
      const profile = getProfileResponseSchema.parse((await agent.get('/api/v1/profile/')).json())
      const feed = pathOf(profile.data.calendar_url)
      const ip = '10.5.0.1'
      for (let i = 0; i < calendarLimits.feed.points - 1; i++) {
        await limited.app.rateLimit.consume(calendarLimits.feed, limitKeys.ip(ip))
      }
      const fetchFrom = (from: string) =>
        limited.app.inject({ method: 'GET', url: feed, remoteAddress: from })
      expect((await fetchFrom(ip)).statusCode).toBe(200)
      const over = await fetchFrom(ip)
      expect(over.statusCode).toBe(429)
      expect(over.json().code).toBe('RATE_LIMITED')
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
      expect((await fetchFrom('10.5.0.2')).statusCode).toBe(200)
    } finally {
      await limited.close()
    }
  })
})

describe('GET /podclubs/:podclubId/calendar/', () => {
  it("downloads the podclub's entry for 'add to calendar'", async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id, {
      location: 'nyc',
      durationMinutes: 90,
      startsAt: new Date('2027-02-01T19:00:00Z'),
    })
    const res = await createAgent(t.app).get(`/api/v1/podclubs/${podclub.id}/calendar/`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="podclub-${podclub.id}.ics"`,
    )
    const parsed = parseIcs(res.body)
    expect(parsed.method).toBe('PUBLISH')
    const [event] = parsed.events
    expect(event!.uid).toBe(`podclub-${podclub.id}@podclub.test`)
    expect(event!.start.toISOString()).toBe(podclub.startsAt.toISOString())
    expect(event!.end.getTime() - event!.start.getTime()).toBe(90 * 60_000)
    expect(event!.location).toBe(t.env.NYC_OFFICE_ADDRESS)
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, podclub.id))
    expect(event!.sequence).toBe(row!.calendarSequence)
    expect((await createAgent(t.app).get('/api/v1/podclubs/99999999/calendar/')).statusCode).toBe(
      404,
    )
  })
})
