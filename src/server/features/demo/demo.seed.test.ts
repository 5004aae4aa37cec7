import { TZDate } from '@date-fns/tz'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hindsights, podclubs, pollVotes, registrations, users } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, type TestApp } from '../../testing/test-app'
import { DEMO_PASSWORD, seedDemo } from './demo.seed'

let t: TestApp
const clock = fixedClock('2026-11-21T15:00:00Z')
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

describe('demo data', () => {
  it('fills an empty club once, within the club rules', async () => {
    expect(await seedDemo(t.db, clock)).toEqual({ seeded: true })
    expect(await seedDemo(t.db, clock)).toEqual({ seeded: false })

    const clubs = await t.db.select().from(podclubs)
    expect(clubs.filter((c) => c.status === 'upcoming').length).toBeGreaterThan(0)
    expect(clubs.filter((c) => c.status === 'completed').length).toBeGreaterThan(0)
    for (const club of clubs) {
      const [{ n }] = (await t.db
        .select({ n: count() })
        .from(registrations)
        .where(eq(registrations.podclubId, club.id))) as [{ n: number }]
      expect(n).toBeLessThanOrEqual(9)
      const local = new TZDate(club.startsAt.getTime(), 'America/New_York')
      expect([0, 30]).toContain(local.getMinutes())
      if (club.status === 'upcoming')
        expect(club.startsAt.getTime()).toBeGreaterThan(clock.now().getTime())
      else expect(club.chatlog).toMatch(/^\d\d:\d\d:\d\d From /)
    }
    expect((await t.db.select({ n: count() }).from(hindsights))[0]!.n).toBeGreaterThan(0)
    expect((await t.db.select({ n: count() }).from(pollVotes))[0]!.n).toBeGreaterThan(0)

    const [member] = await t.db.select().from(users).where(eq(users.username, 'maya.r'))
    const res = await createAgent(t.app).login(member!.username, DEMO_PASSWORD)
    expect(res.json().data.user.username).toBe('maya.r')
  })
})
