import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboxMessages, podcasts, podclubs, registrations, users } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { createUser, type TestApp } from '../../testing/test-app'
import { openTwoApps } from '../../testing/two-apps'
import { updatePodclub } from '../control-panel/control-panel.service'
import { formatClubDateTime } from '#contract/club-time'
import { NOTICES, sendDueReminders, sendManualNotice } from './reminders.service'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const clock = fixedClock('2026-12-01T15:00:00Z')

let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps({
    clock,
    env: { ZOOM_LINK: 'https://zoom.example/j/42' },
  }))
})
afterAll(() => close())

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

/** The reminders queued for a podclub (other mail about it, such as calendar entries, aside). */
const mailOf = async (podclubId: number) =>
  (await a.db.select().from(outboxMessages)).filter(
    (m) => m.kind.startsWith('reminder-') && m.dedupeKey?.includes(`:podclub-${podclubId}:`),
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

  it('after downtime, sends only the nearest due notice, and says when it really starts', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub } = await podclubIn(2 * 60 * MINUTE, 'nyc')
    await sendDueReminders(a.deps)
    const mail = await mailOf(podclub.id)
    expect(new Set(mail.map((m) => m.kind))).toEqual(new Set(['reminder-1d']))
    expect(mail[0]!.textBody).toContain('In person: podclub NYC Office, New York, NY')
    // Two hours ahead is today, not 'tomorrow'.
    expect(mail[0]!.subject).toMatch(/\) starts today$/)
    expect(mail[0]!.textBody).toContain('starts today: Tuesday, December 1, 2026 at 12:00 PM EST.')
    expect(await flags(podclub.id)).toEqual([false, true, false])

    // Five minutes ahead with nothing sent: the 10-minute notice only, never the other two.
    const { podclub: soon } = await podclubIn(5 * MINUTE)
    await sendDueReminders(a.deps)
    await sendDueReminders(b.deps)
    const late = await mailOf(soon.id)
    expect(late.map((m) => m.kind)).toEqual(['reminder-10m', 'reminder-10m', 'reminder-10m'])
    expect(late[0]!.subject).toMatch(/starts in 5 minutes$/)
    expect(await flags(soon.id)).toEqual([false, false, true])
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
      sendManualNotice(a.deps, podclub.id).catch(() => undefined),
      sendManualNotice(b.deps, podclub.id).catch(() => undefined),
      sendDueReminders(b.deps),
    ])
    const mail = await mailOf(podclub.id)
    expect(mail).toHaveLength(3)
    const winners = results.flat().filter((r) => r && r.podclubId === podclub.id)
    expect(winners).toHaveLength(1)
    await expect(sendManualNotice(a.deps, podclub.id)).rejects.toThrow(
      'The 10-minute notice was already sent.',
    )
  })

  it('two schedulers on one database, each notice as it comes due: one e-mail per recipient and kind', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const start = clock.now().getTime()
    const clubs = [
      await podclubIn(7 * DAY + 60 * MINUTE),
      await podclubIn(7 * DAY + 60 * MINUTE),
      await podclubIn(8 * DAY, 'nyc'),
      await podclubIn(9 * DAY + 30 * MINUTE),
    ]
    // The moments each notice comes due, and just after (a scheduler runs every 30 s).
    const ticks = clubs
      .flatMap(({ podclub }) =>
        NOTICES.flatMap((n) =>
          [0, 1_000, 20_000].map((d) => podclub.startsAt.getTime() - n.before + d),
        ),
      )
      .sort((x, y) => x - y)
    for (const at of ticks) {
      clock.set(new Date(Math.max(at, start)))
      await Promise.all([
        sendDueReminders(a.deps),
        sendDueReminders(b.deps),
        sendDueReminders(b.deps),
      ])
    }
    for (const { podclub, everyone } of clubs) {
      const mail = await mailOf(podclub.id)
      const sent = mail.map((m) => `${m.kind} ${m.toAddress}`).sort()
      const expected = ['reminder-10m', 'reminder-1d', 'reminder-1w']
        .flatMap((kind) => everyone.map((to) => `${kind} ${to}`))
        .sort()
      expect(sent).toEqual(expected)
      expect(await flags(podclub.id)).toEqual([true, true, true])
    }
  })

  it('still reminds a member who unsubscribed from blasts: a seat is not a newsletter', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub, guests } = await podclubIn(DAY - MINUTE)
    await a.db
      .update(users)
      .set({ blastsUnsubscribedAt: clock.now() })
      .where(eq(users.id, guests[0]!.id))
    await sendDueReminders(a.deps)
    const mail = await mailOf(podclub.id)
    expect(mail.map((m) => m.toAddress)).toContain(guests[0]!.email)
    expect(mail[0]!.subject).toMatch(/starts tomorrow$/)
  })

  it('re-arms the notices still ahead when an operator moves the podclub, and sends them for the new date', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub, everyone } = await podclubIn(7 * DAY - MINUTE)
    await sendDueReminders(a.deps)
    expect((await mailOf(podclub.id)).map((m) => m.kind)).toEqual([
      'reminder-1w',
      'reminder-1w',
      'reminder-1w',
    ])
    // Moved three weeks later: the one-week notice is due again, at the new date.
    const later = new Date(podclub.startsAt.getTime() + 21 * DAY)
    await updatePodclub(a.deps, podclub.id, { scheduledStart: formatClubDateTime(later) })
    expect(await flags(podclub.id)).toEqual([false, false, false])
    await sendDueReminders(a.deps)
    expect(await mailOf(podclub.id)).toHaveLength(3)
    clock.set(new Date(later.getTime() - 7 * DAY + 10_000))
    await sendDueReminders(a.deps)
    await sendDueReminders(b.deps)
    const oneWeek = (await mailOf(podclub.id)).filter((m) => m.kind === 'reminder-1w')
    expect(oneWeek.map((m) => m.toAddress).sort()).toEqual([...everyone, ...everyone].sort())
    expect(oneWeek.at(-1)!.subject).toMatch(/starts in one week$/)

    // Moved a day earlier after that: nothing already due at the new date goes out twice.
    const earlier = new Date(later.getTime() - DAY)
    await updatePodclub(a.deps, podclub.id, { scheduledStart: formatClubDateTime(earlier) })
    expect(await flags(podclub.id)).toEqual([true, false, false])
    await sendDueReminders(a.deps)
    expect((await mailOf(podclub.id)).filter((m) => m.kind === 'reminder-1w')).toHaveLength(6)
  })

  it('claims a notice only while it is due: a podclub moved after the scheduler chose it is left alone', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub } = await podclubIn(7 * DAY - MINUTE)
    // The scheduler reads the due list at T; by the time it claims, the podclub is no longer in
    // its one-week window (as after an operator's move): nothing is claimed or sent.
    const chosenAt = clock.now().getTime()
    let reads = 0
    const racing = {
      ...a.deps,
      clock: { now: () => new Date(reads++ === 0 ? chosenAt : chosenAt + 6.5 * DAY) },
    }
    expect(await sendDueReminders(racing)).toEqual([])
    expect(await mailOf(podclub.id)).toHaveLength(0)
    expect(await flags(podclub.id)).toEqual([false, false, false])
  })

  it('queues each recipient once per kind even if a flag is reset by hand', async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub } = await podclubIn(5 * MINUTE)
    await sendManualNotice(a.deps, podclub.id)
    await a.db.update(podclubs).set({ tenMinNoticeSent: false }).where(eq(podclubs.id, podclub.id))
    await sendManualNotice(a.deps, podclub.id)
    expect(await mailOf(podclub.id)).toHaveLength(3)
  })

  it("the operator's notice 13 minutes ahead: no 1-day reminder after it, and the 10-minute one still comes", async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub, everyone } = await podclubIn(13 * MINUTE)
    await sendManualNotice(a.deps, podclub.id)
    let mail = await mailOf(podclub.id)
    expect(mail.map((m) => m.kind)).toEqual([
      'reminder-notice',
      'reminder-notice',
      'reminder-notice',
    ])
    expect(mail[0]!.subject).toMatch(/starts in 13 minutes$/)
    expect(mail[0]!.textBody).toContain('Join on Zoom: https://zoom.example/j/42')
    // Nine seconds later the scheduler runs: the 1-day reminder's moment has passed and the
    // operator's notice took its place; nothing goes that says the link comes later.
    clock.advance(9_000)
    await sendDueReminders(a.deps)
    await sendDueReminders(b.deps)
    expect(await mailOf(podclub.id)).toHaveLength(3)
    expect(await flags(podclub.id)).toEqual([false, false, false])
    // A second press in the same window is refused.
    await expect(sendManualNotice(a.deps, podclub.id)).rejects.toThrow(
      /The notice was already sent on .*; the 10-minute reminder goes out on time\./,
    )
    // At ten minutes, the 10-minute reminder with the link.
    clock.set(new Date(podclub.startsAt.getTime() - 10 * MINUTE + 5_000))
    await sendDueReminders(a.deps)
    mail = await mailOf(podclub.id)
    const tenMinute = mail.filter((m) => m.kind === 'reminder-10m')
    expect(tenMinute.map((m) => m.toAddress).sort()).toEqual(everyone)
    expect(tenMinute[0]!.subject).toMatch(/starts in 10 minutes$/)
    expect(await flags(podclub.id)).toEqual([false, false, true])
    expect(mail.some((m) => m.textBody.includes('comes with the 10-minute reminder'))).toBe(false)
  })

  it("the operator's notice 41 days ahead asks for confirmation, says so, and every reminder still comes", async () => {
    clock.set('2026-12-01T15:00:00Z')
    const { podclub, everyone } = await podclubIn(41 * DAY)
    await expect(sendManualNotice(a.deps, podclub.id)).rejects.toThrow(
      'It starts in 41 days (Monday, January 11, 2027 at 10:00 AM EST). Sending the notice now e-mails its podmeister and attendees the Zoom link and says it starts in 41 days. The 1-week, 1-day and 10-minute reminders still go out on time. Confirm to send it.',
    )
    expect(await mailOf(podclub.id)).toHaveLength(0)
    await sendManualNotice(a.deps, podclub.id, { confirm: true })
    const notice = await mailOf(podclub.id)
    expect(notice.map((m) => m.toAddress).sort()).toEqual(everyone)
    expect(notice[0]!.subject).toMatch(/starts in 41 days$/)
    expect(await flags(podclub.id)).toEqual([false, false, false])
    // Each reminder as its moment comes.
    for (const n of NOTICES) {
      clock.set(new Date(podclub.startsAt.getTime() - n.before + 5_000))
      await sendDueReminders(a.deps)
    }
    const kinds = (await mailOf(podclub.id)).map((m) => m.kind)
    for (const kind of ['reminder-1w', 'reminder-1d', 'reminder-10m'])
      expect(kinds.filter((k) => k === kind)).toHaveLength(3)
    expect(await flags(podclub.id)).toEqual([true, true, true])
  })

  it('a reminder sent late says the time left and promises the link only when the 10-minute one is to come', async () => {
    clock.set('2026-12-01T15:00:00Z')
    // Created 13 minutes ahead, nothing sent: the 1-day reminder goes (its moment has passed,
    // the 10-minute one's has not), saying the time left, and the 10-minute one follows.
    const { podclub } = await podclubIn(13 * MINUTE)
    await sendDueReminders(a.deps)
    const [oneDay] = await mailOf(podclub.id)
    expect(oneDay!.kind).toBe('reminder-1d')
    expect(oneDay!.subject).toMatch(/starts in 13 minutes$/)
    expect(oneDay!.textBody).toContain('the link comes with the 10-minute reminder')
    // Once the 10-minute one has gone, no farther reminder goes after it.
    const { podclub: late } = await podclubIn(DAY - MINUTE)
    await a.db.update(podclubs).set({ tenMinNoticeSent: true }).where(eq(podclubs.id, late.id))
    await sendDueReminders(a.deps)
    expect(await mailOf(late.id)).toHaveLength(0)
  })
})
