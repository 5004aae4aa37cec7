import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../db/client'
import { outboxMessages, podcasts, podclubs, registrations } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { createTestDatabase, type TestDatabase } from '../../testing/test-db'
import { sendDueReminders, sendNoticeNow } from './reminders.service'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const clock = fixedClock('2026-12-01T15:00:00Z')

let database: TestDatabase
let second: Database
let a: TestApp
let b: TestApp
beforeAll(async () => {
  database = await createTestDatabase()
  second = await database.connectAgain()
  a = await buildTestApp({ database, clock, env: { ZOOM_LINK: 'https://zoom.example/j/42' } })
  b = await buildTestApp({
    database: second,
    clock,
    env: { ZOOM_LINK: 'https://zoom.example/j/42' },
  })
})
afterAll(async () => {
  await a.close()
  await b.close()
  await second.close()
  await database.close()
})

/** A podclub starting `ahead` ms from the clock, hosted by a new member, with two attendees. */
async function podclubIn(ahead: number, location: 'zoom' | 'nyc' = 'zoom') {
  const host = await createUser(a)
  const guests = [await createUser(a), await createUser(a)]
  const [podcast] = await a.db
    .insert(podcasts)
    .values({ name: `Show ${Math.random()}` })
    .returning()
  const [podclub] = await a.db
    .insert(podclubs)
    .values({
      podcastId: podcast!.id,
      podmeisterId: host.id,
      episodeTitle: 'The Memory Palace',
      startsAt: new Date(clock.now().getTime() + ahead),
      location,
    })
    .returning()
  await a.db
    .insert(registrations)
    .values(guests.map((g) => ({ podclubId: podclub!.id, userId: g.id })))
  return { podclub: podclub!, host, guests, everyone: [host, ...guests].map((u) => u.email).sort() }
}

const mailOf = async (podclubId: number) =>
  (await a.db.select().from(outboxMessages)).filter((m) =>
    m.dedupeKey?.includes(`:podclub-${podclubId}:`),
  )
const flags = async (id: number) => {
  const [p] = await a.db.select().from(podclubs).where(eq(podclubs.id, id))
  return [p!.oneWeekNoticeSent, p!.oneDayNoticeSent, p!.tenMinNoticeSent]
}

describe('reminders', () => {
  it('sends each notice once, to the podmeister and the attendees, as its time comes', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub, everyone } = await podclubIn(7 * DAY + 30 * MINUTE)
    await sendDueReminders(a.deps)
    expect(await mailOf(podclub.id)).toHaveLength(0)

    clock.advance(31 * MINUTE)
    await sendDueReminders(a.deps)
    await sendDueReminders(a.deps)
    let mail = await mailOf(podclub.id)
    expect(mail.map((m) => m.kind)).toEqual(['reminder-1w', 'reminder-1w', 'reminder-1w'])
    expect(mail.map((m) => m.toAddress).sort()).toEqual(everyone)
    expect(await flags(podclub.id)).toEqual([true, false, false])

    clock.advance(6 * DAY)
    await sendDueReminders(a.deps)
    clock.advance(DAY - 10 * MINUTE)
    await sendDueReminders(a.deps)
    await sendDueReminders(b.deps)
    mail = await mailOf(podclub.id)
    expect(mail.filter((m) => m.kind === 'reminder-1d')).toHaveLength(3)
    const tenMinute = mail.filter((m) => m.kind === 'reminder-10m')
    expect(tenMinute).toHaveLength(3)
    expect(tenMinute[0]!.textBody).toContain('Join on Zoom: https://zoom.example/j/42')
    expect(tenMinute[0]!.htmlBody).toContain('<a href="https://zoom.example/j/42">')
    expect(await flags(podclub.id)).toEqual([true, true, true])
  })

  it('after downtime, sends only the nearest due notice', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub } = await podclubIn(2 * 60 * MINUTE, 'nyc')
    await sendDueReminders(a.deps)
    const mail = await mailOf(podclub.id)
    expect(new Set(mail.map((m) => m.kind))).toEqual(new Set(['reminder-1d']))
    expect(mail[0]!.textBody).toContain('In person: podclub NYC Office, New York, NY')
    expect(await flags(podclub.id)).toEqual([false, true, false])
    // A podclub that has started gets nothing.
    const { podclub: started } = await podclubIn(-MINUTE)
    await sendDueReminders(a.deps)
    expect(await mailOf(started.id)).toHaveLength(0)
  })

  it('sends once when two schedulers and the operator race for the same notice', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub } = await podclubIn(5 * MINUTE)
    const results = await Promise.all([
      sendDueReminders(a.deps),
      sendDueReminders(b.deps),
      sendNoticeNow(a.deps, podclub.id, '10m'),
      sendNoticeNow(b.deps, podclub.id, '10m'),
      sendDueReminders(b.deps),
    ])
    const mail = await mailOf(podclub.id)
    expect(mail).toHaveLength(3)
    const winners = results.flat().filter((r) => r && r.podclubId === podclub.id)
    expect(winners).toHaveLength(1)
    expect(await sendNoticeNow(a.deps, podclub.id, '10m')).toBeUndefined()
  })

  it('queues each recipient once per kind even if a flag is reset by hand', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub } = await podclubIn(5 * MINUTE)
    await sendNoticeNow(a.deps, podclub.id, '10m')
    await a.db.update(podclubs).set({ tenMinNoticeSent: false }).where(eq(podclubs.id, podclub.id))
    await sendNoticeNow(a.deps, podclub.id, '10m')
    expect(await mailOf(podclub.id)).toHaveLength(3)
  })
})
