import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getSplashResponseSchema } from '#contract/podclubs'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { podclubs, users } from '../../db/schema/index'

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

  it('shows a new member, a deleted one and a completed podclub at once (the versions, no timer)', async () => {
    const stats = async () => {
      const res = await createAgent(t.app).get('/api/v1/splash/')
      return getSplashResponseSchema.parse(res.json()).data
    }
    const before = await stats()
    const member = await createUser(t, { city: 'Hoboken' })
    expect(await stats()).toEqual({
      ...before,
      member_count: before.member_count + 1,
      cities_count: before.cities_count + 1,
    })
    await t.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member.id))
    expect(await stats()).toEqual(before)
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id, {
      startsAt: new Date('2026-11-01T00:00:00Z'),
    })
    expect((await stats()).completed_podclub_count).toBe(before.completed_podclub_count)
    await t.db
      .update(podclubs)
      .set({ status: 'completed', completedAt: new Date('2026-11-01T02:00:00Z') })
      .where(eq(podclubs.id, podclub.id))
    expect((await stats()).completed_podclub_count).toBe(before.completed_podclub_count + 1)
  })
})
