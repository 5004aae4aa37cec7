import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSplashResponseSchema } from '#contract/podclubs'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { SPLASH_STATS_MAX_AGE_MS } from './splash.routes'

const clock = fixedClock('2026-11-26T12:00:00Z')
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ clock })
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

  it('counts once for every request within 10 s, and again after', async () => {
    clock.advance(SPLASH_STATS_MAX_AGE_MS)
    const members = async () => {
      const res = await createAgent(t.app).get('/api/v1/splash/')
      return getSplashResponseSchema.parse(res.json()).data.member_count
    }
    const before = await members()
    await createUser(t)
    clock.advance(SPLASH_STATS_MAX_AGE_MS - 1)
    expect(await members()).toBe(before)
    clock.advance(1)
    expect(await members()).toBe(before + 1)
  })
})
