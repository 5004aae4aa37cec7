import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSplashResponseSchema } from '#contract/podclubs'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('GET /splash/', () => {
  it('counts every account, completed podclubs, and distinct cities ignoring case and blanks', async () => {
    const host = await createUser(t, { city: 'Brooklyn' })
    await createUser(t, { city: ' brooklyn ' })
    await createUser(t, { city: 'Queens' })
    await createUser(t, { city: '' })
    await createUser(t, { city: '   ' })
    await insertPodclub(t.db, host.id, {
      status: 'completed',
      startsAt: new Date('2026-01-01T00:00:00Z'),
      completedAt: new Date('2026-01-01T02:00:00Z'),
    })
    await insertPodclub(t.db, host.id)
    await insertPodclub(t.db, host.id, { status: 'cancelled' })
    const res = await createAgent(t.app).get('/api/v1/splash/')
    expect(res.statusCode).toBe(200)
    expect(getSplashResponseSchema.parse(res.json()).data).toEqual({
      member_count: 5,
      completed_podclub_count: 1,
      cities_count: 2,
    })
  })
})
