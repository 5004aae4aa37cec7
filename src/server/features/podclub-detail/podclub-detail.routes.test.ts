import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPodclubDetailResponseSchema } from '#contract/podclub-detail'
import { hindsights } from '../../db/schema/index'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { createPodclub } from './podclub-detail.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

async function loggedIn(user: { username: string; password: string }) {
  const agent = createAgent(t.app)
  await agent.login(user.username, user.password)
  return agent
}

describe('GET /podclubs/:id/', () => {
  it('answers an upcoming podclub with its podmeister, attendees, cred and links', async () => {
    const host = await createUser(t)
    const [a, b] = [await createUser(t), await createUser(t)]
    // Earlier history: host hosted one completed podclub, `a` attended two.
    await createPodclub(t, { podmeisterId: host.id, attendeeIds: [a.id], status: 'completed' })
    await createPodclub(t, {
      podmeisterId: b.id,
      attendeeIds: [a.id, host.id],
      status: 'completed',
    })
    await createPodclub(t, { podmeisterId: b.id, attendeeIds: [a.id], status: 'cancelled' })
    const club = await createPodclub(t, { podmeisterId: host.id, attendeeIds: [b.id, a.id] })

    const res = await createAgent(t.app).get(`/api/v1/podclubs/${club.id}/`)
    expect(res.statusCode).toBe(200)
    const { data } = getPodclubDetailResponseSchema.parse(res.json())
    expect(data).toMatchObject({
      id: club.id,
      status: 'upcoming',
      seats_left: 7,
      podmeister: { username: host.username, profile: { cred: 2 } },
      api_registered_usernames: {
        reserved: [
          { username: b.username, cred: 1 },
          { username: a.username, cred: 2 },
        ],
      },
      links: ['https://example.com/one', 'https://example.com/three'],
      pretty_date: 'Monday, June 1, 2026',
      pretty_time: '7:00 PM EDT',
    })
    expect(data).not.toHaveProperty('hindsights')
    expect(data).not.toHaveProperty('chatlog')
  })

  it('gives hindsights and the chat log of a completed podclub to its attendees only', async () => {
    const host = await createUser(t)
    const attendee = await createUser(t)
    const stranger = await createUser(t)
    const club = await createPodclub(t, {
      podmeisterId: host.id,
      attendeeIds: [attendee.id],
      status: 'completed',
      chatlog: '19:00:01 From ren to Everyone: hi',
    })
    await t.db
      .insert(hindsights)
      .values({ podclubId: club.id, userId: attendee.id, message: 'Good' })
    const path = `/api/v1/podclubs/${club.id}/`

    for (const viewer of [attendee, host]) {
      const res = await (await loggedIn(viewer)).get(path)
      expect(res.statusCode).toBe(200)
      const { data } = getPodclubDetailResponseSchema.parse(res.json())
      expect(data.hindsights).toEqual([{ username: attendee.username, message: 'Good' }])
      expect(data.chatlog).toBe('19:00:01 From ren to Everyone: hi')
    }
    for (const agent of [await loggedIn(stranger), createAgent(t.app)]) {
      const res = await agent.get(path)
      expect(res.statusCode).toBe(200)
      const body = res.json() as { data: Record<string, unknown> }
      expect(Object.keys(body.data)).not.toContain('hindsights')
      expect(Object.keys(body.data)).not.toContain('chatlog')
      expect(res.body).not.toContain('From ren')
    }
  })

  it('answers 404 for an unknown podclub and 400 for an id that is not one', async () => {
    expect((await createAgent(t.app).get('/api/v1/podclubs/999999/')).statusCode).toBe(404)
    expect((await createAgent(t.app).get('/api/v1/podclubs/abc/')).statusCode).toBe(400)
    expect((await createAgent(t.app).get('/api/v1/podclubs/99999999999/')).statusCode).toBe(400)
  })
})
