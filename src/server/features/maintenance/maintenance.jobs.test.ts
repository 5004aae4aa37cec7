import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { passwordResetTokens, rateLimits, sessions } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { pruneExpiredJob } from './maintenance.jobs'

let t: TestApp
const clock = fixedClock('2026-11-21T12:00:00Z')
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

describe('pruneExpiredJob', () => {
  it('deletes only what has run out', async () => {
    const user = await createUser(t)
    const hour = 3_600_000
    const at = (ms: number) => new Date(clock.now().getTime() + ms)
    await t.db.insert(sessions).values([
      { idHash: 'expired', userId: user.id, expiresAt: at(-hour) },
      { idHash: 'live', userId: user.id, expiresAt: at(hour) },
    ])
    await t.db.insert(rateLimits).values([
      { key: 'old', points: 3, expire: at(-hour) },
      { key: 'current', points: 3, expire: at(hour) },
    ])
    await t.db.insert(passwordResetTokens).values([
      { userId: user.id, tokenHash: 'stale', expiresAt: at(-48 * hour) },
      { userId: user.id, tokenHash: 'used-long-ago', expiresAt: at(hour), usedAt: at(-30 * hour) },
      { userId: user.id, tokenHash: 'fresh', expiresAt: at(hour) },
    ])

    expect(await pruneExpiredJob.run({ db: t.db, clock })).toEqual({
      sessions: 1,
      rateLimits: 1,
      resetTokens: 2,
    })
    expect(
      (await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.idHash),
    ).toEqual(['live'])
    expect((await t.db.select().from(rateLimits)).map((r) => r.key)).toContain('current')
    expect((await t.db.select().from(passwordResetTokens)).map((r) => r.tokenHash)).toEqual([
      'fresh',
    ])
  })
})
