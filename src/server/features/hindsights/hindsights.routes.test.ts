import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createHindsightResponseSchema,
  getPodclubDetailResponseSchema,
} from '#contract/podclub-detail'
import { hindsights } from '../../db/schema/index'
import { openTwoApps } from '../../testing/two-apps'
import { createAgent, createUser, type TestApp } from '../../testing/test-app'
import { createPodclub } from '../podclub-detail/podclub-detail.fixtures'

/** Two app instances on one database (two connection pools on PostgreSQL), as two processes. */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const post = (agent: ReturnType<typeof createAgent>, id: number, hindsight: unknown) =>
  agent.post(`/api/v1/podclub/${id}/submit_hindsight/`, { hindsight })

async function loggedIn(t: TestApp, user: { username: string; password: string }) {
  const agent = createAgent(t.app)
  await agent.login(user.username, user.password)
  return agent
}

describe('POST /podclub/:id/submit_hindsight/', () => {
  it('lets an attendee and the podmeister post, trimmed, and shows it on the detail', async () => {
    const host = await createUser(a)
    const attendee = await createUser(a)
    const club = await createPodclub(a, {
      podmeisterId: host.id,
      attendeeIds: [attendee.id],
      status: 'completed',
    })
    const agent = await loggedIn(a, attendee)
    const res = await post(agent, club.id, '  loved it https://example.com  ')
    expect(res.statusCode).toBe(201)
    expect(createHindsightResponseSchema.parse(res.json()).data).toEqual({
      username: attendee.username,
      message: 'loved it https://example.com',
    })
    expect((await post(await loggedIn(a, host), club.id, 'thanks all')).statusCode).toBe(201)
    const detail = getPodclubDetailResponseSchema.parse(
      (await agent.get(`/api/v1/podclubs/${club.id}/`)).json(),
    ).data
    expect(detail.hindsights?.map((h) => h.message)).toEqual([
      'loved it https://example.com',
      'thanks all',
    ])
  })

  it('refuses blank, too long and non-text hindsights with 400', async () => {
    const host = await createUser(a)
    const club = await createPodclub(a, { podmeisterId: host.id, status: 'completed' })
    const agent = await loggedIn(a, host)
    for (const bad of ['', '   \n\t ', 'x'.repeat(1001), 42, null, 'a\u0000b']) {
      const res = await post(agent, club.id, bad)
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
    }
    const blank = await post(agent, club.id, '   ')
    expect(blank.json()).toEqual({ hindsight: ['Hindsight cannot be empty'] })
    expect((await post(agent, club.id, 'x'.repeat(1000))).statusCode).toBe(201)
  })

  it('refuses visitors, non-attendees, unknown podclubs and podclubs not completed', async () => {
    const host = await createUser(a)
    const stranger = await createUser(a)
    const done = await createPodclub(a, { podmeisterId: host.id, status: 'completed' })
    const upcoming = await createPodclub(a, { podmeisterId: host.id })
    expect((await post(createAgent(a.app), done.id, 'hi')).statusCode).toBe(401)
    const strangerRes = await post(await loggedIn(a, stranger), done.id, 'hi')
    expect(strangerRes.statusCode).toBe(403)
    expect(strangerRes.json().detail).toBe('You are not a participant of this podclub')
    const hostAgent = await loggedIn(a, host)
    expect((await post(hostAgent, 999999, 'hi')).statusCode).toBe(404)
    expect((await post(hostAgent, upcoming.id, 'hi')).statusCode).toBe(409)
  })

  it('keeps exactly 20 when 25 attendees post at once through two processes', async () => {
    const host = await createUser(a)
    const people = await Promise.all(Array.from({ length: 8 }, () => createUser(a)))
    const club = await createPodclub(a, {
      podmeisterId: host.id,
      attendeeIds: people.map((p) => p.id),
      status: 'completed',
    })
    const agents = await Promise.all(
      [host, ...people].flatMap((p, i) => [loggedIn(i % 2 ? a : b, p)]),
    )
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => post(agents[i % agents.length]!, club.id, `hs ${i}`)),
    )
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 201)).toHaveLength(20)
    expect(codes.filter((c) => c === 409)).toHaveLength(5)
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(r.json().code).toBe('HINDSIGHT_LIMIT')
    }
    const [{ n } = { n: -1 }] = await a.db
      .select({ n: count() })
      .from(hindsights)
      .where(eq(hindsights.podclubId, club.id))
    expect(n).toBe(20)
  })
})
