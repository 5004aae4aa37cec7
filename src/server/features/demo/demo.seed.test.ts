import { TZDate } from '@date-fns/tz'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  hindsights,
  outboxAttempts,
  outboxMessages,
  podclubs,
  polls,
  pollVotes,
  registrations,
  seatWaitlist,
  users,
} from '../../db/schema/index'
import { listEmailActivity } from '../mail/mail.service'
import { readControlPanel } from '../control-panel/control-panel.service'
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
    const seatsLeft: number[] = []
    expect(clubs.filter((c) => c.status === 'upcoming').length).toBeGreaterThan(0)
    expect(clubs.filter((c) => c.status === 'completed').length).toBeGreaterThan(0)
    for (const club of clubs) {
      const [{ n }] = (await t.db
        .select({ n: count() })
        .from(registrations)
        .where(eq(registrations.podclubId, club.id))) as [{ n: number }]
      expect(n).toBeLessThanOrEqual(9)
      if (club.status === 'upcoming') seatsLeft.push(9 - n)
      const local = new TZDate(club.startsAt.getTime(), 'America/New_York')
      expect([0, 30]).toContain(local.getMinutes())
      if (club.status === 'upcoming')
        expect(club.startsAt.getTime()).toBeGreaterThan(clock.now().getTime())
      else expect(club.chatlog).toMatch(/^\d\d:\d\d:\d\d From /)
    }
    expect((await t.db.select({ n: count() }).from(hindsights))[0]!.n).toBeGreaterThan(0)
    // Varied seats: one full, one with a single seat left, others with many.
    expect(seatsLeft).toContain(0)
    expect(seatsLeft).toContain(1)
    expect(seatsLeft.filter((left) => left >= 4).length).toBeGreaterThanOrEqual(2)
    // The full one has members on its seat waitlist, none of them holding a seat or hosting.
    const waiting = await t.db.select().from(seatWaitlist)
    expect(waiting).toHaveLength(2)
    const full = clubs.find((c) => c.id === waiting[0]!.podclubId)!
    const seated = await t.db
      .select({ userId: registrations.userId })
      .from(registrations)
      .where(eq(registrations.podclubId, full.id))
    expect(seated).toHaveLength(9)
    for (const w of waiting) {
      expect(w.podclubId).toBe(full.id)
      expect(w.userId).not.toBe(full.podmeisterId)
      expect(seated.map((s) => s.userId)).not.toContain(w.userId)
    }

    // An open poll and an expired one, each with votes.
    const allPolls = await t.db.select().from(polls)
    const votes = await t.db.select().from(pollVotes)
    const open = allPolls.filter((p) => p.expiresAt > clock.now())
    const closed = allPolls.filter((p) => p.expiresAt <= clock.now())
    expect(open).toHaveLength(1)
    expect(closed).toHaveLength(1)
    for (const poll of allPolls) {
      expect(votes.filter((v) => v.pollId === poll.id).length).toBeGreaterThan(0)
    }

    // E-mail activity: delivered and failed rows, every one with its attempts, none left pending.
    const outbox = await t.db.select().from(outboxMessages)
    const attempts = await t.db.select().from(outboxAttempts)
    expect(outbox.map((m) => m.status)).toContain('delivered')
    expect(outbox.map((m) => m.status)).toContain('failed')
    expect(outbox.filter((m) => m.status === 'pending' || m.status === 'sending')).toEqual([])
    for (const message of outbox) {
      const own = attempts.filter((a) => a.messageId === message.id)
      expect(own).toHaveLength(message.attempts)
      expect(own.some((a) => a.success)).toBe(message.status === 'delivered')
    }
    const activity = await listEmailActivity(t.db)
    expect(activity).toHaveLength(outbox.length)

    // The control panel has something in every list.
    const panel = await readControlPanel(t.deps)
    expect(panel.all_podclubs.length).toBeGreaterThan(0)
    expect(panel.email_tracker.map((e) => e.success)).toEqual(expect.arrayContaining([true, false]))
    expect(panel.welcome_codes.map((c) => c.active)).toEqual(expect.arrayContaining([true, false]))
    expect(panel.users_this_month.map((u) => u.username).sort()).toEqual([
      'bea.n',
      'ivy.c',
      'ollie',
    ])
    expect(panel.waitlist.length).toBeGreaterThan(0)
    expect(panel.suggestions.length).toBeGreaterThan(0)
    expect(panel.feedback.length).toBeGreaterThan(0)
    for (const list of [panel.waitlist, panel.suggestions, panel.feedback]) {
      const dates = list.map((entry) => entry.date_created)
      expect(dates, 'newest first').toEqual([...dates].sort().reverse())
    }

    const [member] = await t.db.select().from(users).where(eq(users.username, 'maya.r'))
    const res = await createAgent(t.app).login(member!.username, DEMO_PASSWORD)
    expect(res.json().data.user.username).toBe('maya.r')
  })
})
