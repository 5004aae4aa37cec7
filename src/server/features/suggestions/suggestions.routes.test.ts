import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdSchema } from '#contract/suggestions'
import { feedback, suggestions } from '../../db/schema/index'
import { buildTestApp, createAgent, type TestApp, loggedInMember } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const member = () => loggedInMember(t)

describe('POST /suggest_podcast/', () => {
  it('keeps the suggestion with its member', async () => {
    const { user, agent } = await member()
    const res = await agent.post('/api/v1/suggest_podcast/', {
      podcastLink: 'https://podcasts.apple.com/us/podcast/id1',
      reason: 'Best hour on urban trees I have heard.',
    })
    expect(res.statusCode).toBe(201)
    const { id } = createdSchema.parse(res.json()).data
    const [row] = await t.db.select().from(suggestions).where(eq(suggestions.id, id))
    expect(row).toMatchObject({
      userId: user.id,
      podcastLink: 'https://podcasts.apple.com/us/podcast/id1',
      reason: 'Best hour on urban trees I have heard.',
    })
  })

  it('checks the link and the reason with the spec messages', async () => {
    const { agent } = await member()
    const cases: [unknown, Record<string, string[]>][] = [
      [{ podcastLink: '' }, { podcastLink: ['Podcast link is required'] }],
      [{}, { podcastLink: ['Podcast link is required'] }],
      [{ podcastLink: 'not a url' }, { podcastLink: ['Please enter a valid podcast episode URL'] }],
      [
        { podcastLink: 'javascript:alert(1)' },
        { podcastLink: ['Please enter a valid podcast episode URL'] },
      ],
      [
        { podcastLink: 'https://example.com/ep', reason: 'x'.repeat(301) },
        { reason: ['Reason must be less than 300 characters'] },
      ],
    ]
    for (const [body, errors] of cases) {
      const res = await agent.post('/api/v1/suggest_podcast/', body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual(errors)
    }
  })

  it('asks visitors to log in', async () => {
    const res = await createAgent(t.app).post('/api/v1/suggest_podcast/', {
      podcastLink: 'https://example.com/ep',
    })
    expect(res.statusCode).toBe(401)
  })
})

describe('POST /feedback/', () => {
  it('keeps the feedback, with or without a link', async () => {
    const { user, agent } = await member()
    const res = await agent.post('/api/v1/feedback/', {
      podcastLink: '',
      description: 'The sound on the last episode was rough.',
    })
    expect(res.statusCode).toBe(201)
    const [row] = await t.db
      .select()
      .from(feedback)
      .where(eq(feedback.id, createdSchema.parse(res.json()).data.id))
    expect(row).toMatchObject({ userId: user.id, podcastLink: '' })
    const bad = await agent.post('/api/v1/feedback/', { description: '' })
    expect(bad.json()).toEqual({ description: ['Feedback is required'] })
  })
})
