import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getProfileResponseSchema } from '#contract/profile'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { createPodclub } from '../podclub-detail/podclub-detail.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('GET /profile/', () => {
  it('counts cred as completed podclubs attended plus completed podclubs hosted', async () => {
    const me = await createUser(t, { city: 'Queens' })
    const other = await createUser(t)
    const at = (iso: string) => new Date(iso)
    const attended1 = await createPodclub(t, {
      podmeisterId: other.id,
      attendeeIds: [me.id],
      status: 'completed',
      startsAt: at('2026-01-10T00:00:00Z'),
    })
    const attended2 = await createPodclub(t, {
      podmeisterId: other.id,
      attendeeIds: [me.id],
      status: 'completed',
      startsAt: at('2026-03-10T00:00:00Z'),
    })
    const hosted = await createPodclub(t, {
      podmeisterId: me.id,
      attendeeIds: [other.id],
      status: 'completed',
      startsAt: at('2026-02-10T00:00:00Z'),
    })
    // Neither counts: cancelled, and a completed podclub I was not part of.
    await createPodclub(t, { podmeisterId: other.id, attendeeIds: [me.id], status: 'cancelled' })
    await createPodclub(t, { podmeisterId: other.id, status: 'completed' })
    const hosting = await createPodclub(t, {
      podmeisterId: me.id,
      startsAt: at('2026-08-01T16:00:00Z'),
    })
    const seat = await createPodclub(t, {
      podmeisterId: other.id,
      attendeeIds: [me.id],
      startsAt: at('2026-07-01T16:00:00Z'),
    })

    const agent = createAgent(t.app)
    await agent.login(me.username, me.password)
    const res = await agent.get('/api/v1/profile/')
    expect(res.statusCode).toBe(200)
    const { data } = getProfileResponseSchema.parse(res.json())
    expect(data.user).toMatchObject({
      username: me.username,
      email: me.email,
      profile: {
        cred: 3,
        city: 'Queens',
        completed_podclub_count: 2,
        completed_podmeister_count: 1,
      },
    })
    expect(data.upcoming_podclubs.map((p) => p.id)).toEqual([seat.id, hosting.id])
    expect(data.upcoming_podclubs[0]).toMatchObject({
      pretty_date: 'Wednesday, July 1, 2026',
      pretty_time: '12:00 PM EDT',
    })
    expect(data.past_podclubs.map((p) => p.id)).toEqual([attended2.id, hosted.id, attended1.id])
    // The list and the counts agree: each past podclub says how the member took part.
    expect(data.past_podclubs.map((p) => p.role)).toEqual(['attendee', 'podmeister', 'attendee'])
    const roles = data.past_podclubs.map((p) => p.role)
    expect(roles.filter((r) => r === 'attendee')).toHaveLength(
      data.user.profile.completed_podclub_count,
    )
    expect(roles.filter((r) => r === 'podmeister')).toHaveLength(
      data.user.profile.completed_podmeister_count,
    )
    expect(data.upcoming_podclubs.map((p) => p.role)).toEqual(['attendee', 'podmeister'])

    const otherAgent = createAgent(t.app)
    await otherAgent.login(other.username, other.password)
    const theirs = getProfileResponseSchema.parse((await otherAgent.get('/api/v1/profile/')).json())
    // other hosted attended1, attended2 and a completed one alone, and attended `hosted`.
    expect(theirs.data.user.profile).toMatchObject({
      cred: 4,
      completed_podclub_count: 1,
      completed_podmeister_count: 3,
    })
  })

  it('answers 401 to visitors', async () => {
    expect((await createAgent(t.app).get('/api/v1/profile/')).statusCode).toBe(401)
  })
})
