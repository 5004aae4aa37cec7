import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { listPodclubsResponseSchema, seatWaitlistStateResponseSchema } from '#contract/podclubs'
import { outboxMessages, podclubs } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { parseIcs } from '../../testing/ics'
import {
  buildTestApp,
  createAgent,
  createUser,
  type TestApp,
  loggedInMember,
} from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'

const clock = fixedClock('2027-01-04T15:00:00Z')
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

const member = () => loggedInMember(t, { clock })
type Member = Awaited<ReturnType<typeof member>>

/** A podclub two weeks ahead with its 9 seats taken; returns the host and the seat holders. */
async function fullPodclub() {
  const host = await member()
  const podclub = await insertPodclub(t.db, host.user.id, {
    startsAt: new Date(clock.now().getTime() + 14 * 86_400_000),
  })
  const holders: Member[] = []
  for (let i = 0; i < 9; i++) {
    const m = await member()
    expect((await m.agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
    holders.push(m)
  }
  await t.deliverAllMail()
  return { podclub, host, holders }
}

const feedEntry = async (id: number) =>
  listPodclubsResponseSchema
    .parse((await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/')).json())
    .data.find((p) => p.id === id)!

const waitlist = (m: Member, id: number) => m.agent.post(`/api/v1/podclubs/${id}/seat_waitlist/`)

describe('POST /podclubs/:podclubId/seat_waitlist/', () => {
  it('lines members up first come, first served, and gives freed seats in that order', async () => {
    const { podclub, holders } = await fullPodclub()
    const waiting = [await member(), await member(), await member()]
    for (const [i, m] of waiting.entries()) {
      const res = await waitlist(m, podclub.id)
      expect(res.statusCode).toBe(200)
      expect(seatWaitlistStateResponseSchema.parse(res.json()).data).toEqual({
        waitlisted: true,
        position: i + 1,
      })
    }
    let entry = await feedEntry(podclub.id)
    expect(entry.waitlist_count).toBe(3)
    expect(entry.seat_waitlist.waiting).toEqual(waiting.map((m) => m.user.username))

    // First cancel: the first in line gets the seat, in the same call.
    const cancel = await holders[0]!.agent.post(`/api/v1/register/${podclub.id}/`)
    expect(cancel.json().data).toEqual({ registered: false, seats_left: 0 })
    entry = await feedEntry(podclub.id)
    expect(entry.api_registered_usernames.reserved).toContain(waiting[0]!.user.username)
    expect(entry.seat_waitlist.waiting).toEqual([
      waiting[1]!.user.username,
      waiting[2]!.user.username,
    ])

    // Second cancel: the second in line; the third is now second... and then first.
    await holders[1]!.agent.post(`/api/v1/register/${podclub.id}/`)
    entry = await feedEntry(podclub.id)
    expect(entry.api_registered_usernames.reserved).toContain(waiting[1]!.user.username)
    expect(entry.api_registered_usernames.reserved).toHaveLength(9)
    expect(entry.seats_left).toBe(0)
    expect(entry.seat_waitlist.waiting).toEqual([waiting[2]!.user.username])
    expect(entry.waitlist_count).toBe(1)

    // The promoted hear 'You're in' with the calendar entry; the leavers get a cancelling one.
    const mail = await t.deliverAllMail()
    const youreIn = mail.filter((m) => m.subject.startsWith("You're in: a seat opened up for"))
    expect(youreIn.map((m) => m.to).sort()).toEqual(
      [waiting[0]!.user.email, waiting[1]!.user.email].sort(),
    )
    const ics = youreIn[0]!.attachments?.[0]
    expect(ics?.contentType).toContain('text/calendar')
    const parsed = parseIcs(ics!.content)
    expect(parsed.method).toBe('REQUEST')
    expect(parsed.events[0]!.start.toISOString()).toBe(podclub.startsAt.toISOString())
    expect(youreIn[0]!.text).toContain(`http://podclub.test/podclubs/${podclub.id}`)
    expect(youreIn[0]!.html).toContain(`http://podclub.test/podclubs/${podclub.id}`)
    const cancelled = mail.filter((m) => m.subject.startsWith('Seat cancelled:'))
    expect(cancelled.map((m) => m.to).sort()).toEqual(
      [holders[0]!.user.email, holders[1]!.user.email].sort(),
    )
    expect(parseIcs(cancelled[0]!.attachments![0]!.content).method).toBe('CANCEL')
  })

  it('toggles: a second call leaves the line, and the others move up', async () => {
    const { podclub } = await fullPodclub()
    const [a, b] = [await member(), await member()]
    await waitlist(a, podclub.id)
    expect((await waitlist(b, podclub.id)).json().data).toEqual({ waitlisted: true, position: 2 })
    expect((await waitlist(a, podclub.id)).json().data).toEqual({
      waitlisted: false,
      position: null,
    })
    expect((await feedEntry(podclub.id)).seat_waitlist.waiting).toEqual([b.user.username])
    // Joining again puts you at the back.
    expect((await waitlist(a, podclub.id)).json().data).toEqual({ waitlisted: true, position: 2 })
  })

  it('refuses the podmeister, members holding a seat, a podclub with a free seat, and visitors', async () => {
    const { podclub, host, holders } = await fullPodclub()
    const byHost = await waitlist(host, podclub.id)
    expect(byHost.statusCode).toBe(409)
    expect(byHost.json().detail).toMatch(/podmeister/)
    const byHolder = await waitlist(holders[0]!, podclub.id)
    expect(byHolder.statusCode).toBe(409)
    expect(byHolder.json().detail).toBe('You already have a seat at this podclub.')
    const visitor = await createAgent(t.app).post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`)
    expect(visitor.statusCode).toBe(401)

    const other = await insertPodclub(t.db, host.user.id, {
      startsAt: new Date(clock.now().getTime() + 14 * 86_400_000),
    })
    const free = await waitlist(await member(), other.id)
    expect(free.statusCode).toBe(409)
    expect(free.json().detail).toMatch(/A seat is free/)
    expect((await waitlist(await member(), 99_999_999)).statusCode).toBe(404)
    expect((await feedEntry(podclub.id)).waitlist_count).toBe(0)
  })

  it('stops promoting once the podclub has started', async () => {
    const { podclub, holders } = await fullPodclub()
    const next = await member()
    await waitlist(next, podclub.id)
    clock.set(podclub.startsAt)
    try {
      const late = await holders[0]!.agent.post(`/api/v1/register/${podclub.id}/`)
      expect(late.statusCode).toBe(409)
      expect(late.json().detail).toBe('This podclub has already started.')
      expect((await waitlist(await member(), podclub.id)).statusCode).toBe(409)
    } finally {
      clock.set('2027-01-04T15:00:00Z')
    }
    // One minute before the start a cancel still promotes.
    clock.set(new Date(podclub.startsAt.getTime() - 60_000))
    try {
      await holders[0]!.agent.post(`/api/v1/register/${podclub.id}/`)
      const entry = await feedEntry(podclub.id)
      expect(entry.api_registered_usernames.reserved).toContain(next.user.username)
    } finally {
      clock.set('2027-01-04T15:00:00Z')
    }
  })

  it('empties the waitlist when an operator completes or cancels the podclub', async () => {
    const admin = await createUser(t, { isSuperuser: true })
    const operator = createAgent(t.app, { clock })
    await operator.login(admin.username, admin.password)
    for (const how of ['complete', 'cancel'] as const) {
      const { podclub } = await fullPodclub()
      await waitlist(await member(), podclub.id)
      await waitlist(await member(), podclub.id)
      // A podclub is completed once it has taken place.
      if (how === 'complete') clock.set(new Date(podclub.startsAt.getTime() + 3_600_000))
      try {
        const res =
          how === 'complete'
            ? await operator.post('/api/v1/controlpanel/trigger/', {
                podclub_pk: podclub.id,
                notice_type: 'complete',
              })
            : await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
                method: 'PATCH',
                body: { status: 'cancelled' },
              })
        expect(res.statusCode).toBe(200)
      } finally {
        clock.set('2027-01-04T15:00:00Z')
      }
      const detail = await createAgent(t.app).get(`/api/v1/podclubs/${podclub.id}/`)
      expect(detail.json().data.waitlist_count).toBe(0)
    }
  })

  it('mails the seat holders a cancelling entry when an operator cancels the podclub', async () => {
    const admin = await createUser(t, { isSuperuser: true })
    const operator = createAgent(t.app, { clock })
    await operator.login(admin.username, admin.password)
    const { podclub, host, holders } = await fullPodclub()
    await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: { status: 'cancelled' },
    })
    const mail = (await t.deliverAllMail()).filter((m) => m.subject.startsWith('Cancelled:'))
    expect(mail.map((m) => m.to).sort()).toEqual(
      [host.user.email, ...holders.map((h) => h.user.email)].sort(),
    )
    const parsed = parseIcs(mail[0]!.attachments![0]!.content)
    expect(parsed.method).toBe('CANCEL')
    expect(parsed.events[0]!.sequence).toBe(1)
  })
})

describe('seat e-mails', () => {
  it('confirms a seat taken on the card with the calendar entry, and one taken by an operator', async () => {
    const host = await member()
    const podclub = await insertPodclub(t.db, host.user.id, {
      startsAt: new Date('2027-03-14T18:00:00Z'),
      location: 'nyc',
    })
    const m = await member()
    await t.deliverAllMail()
    await m.agent.post(`/api/v1/register/${podclub.id}/`)
    const [mail] = await t.deliverAllMail()
    expect(mail!.to).toBe(m.user.email)
    expect(mail!.subject).toMatch(
      /^Your seat for "Episode \d+" \(Podcast .+\) on Sunday, March 14, 2027$/,
    )
    const parsed = parseIcs(mail!.attachments![0]!.content)
    expect(parsed.method).toBe('REQUEST')
    expect(parsed.events[0]!.location).toBe(t.env.NYC_OFFICE_ADDRESS)
    expect(parsed.events[0]!.start.toISOString()).toBe('2027-03-14T18:00:00.000Z')

    const admin = await createUser(t, { isSuperuser: true })
    const operator = createAgent(t.app, { clock })
    await operator.login(admin.username, admin.password)
    const other = await createUser(t)
    const quick = await operator.post(`/api/v1/register_admin/${podclub.id}/${other.username}/`)
    expect(quick.statusCode).toBe(200)
    const [quickMail] = await t.deliverAllMail()
    expect(quickMail!.to).toBe(other.email)
    expect(quickMail!.attachments![0]!.filename).toBe('invite.ics')
    // Once delivered, the outbox keeps the subject for the e-mail activity, not the files.
    const kept = await t.db
      .select({ attachments: outboxMessages.attachments, text: outboxMessages.textBody })
      .from(outboxMessages)
      .where(eq(outboxMessages.kind, 'seat-confirmed'))
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.every((m) => m.attachments === null && m.text === '')).toBe(true)
  })

  it('raises SEQUENCE and mails the new time when an operator moves the podclub', async () => {
    const host = await member()
    const podclub = await insertPodclub(t.db, host.user.id, {
      startsAt: new Date('2027-02-01T19:00:00Z'),
    })
    const m = await member()
    await m.agent.post(`/api/v1/register/${podclub.id}/`)
    const [first] = await t.deliverAllMail()
    const before = parseIcs(first!.attachments![0]!.content).events[0]!

    const admin = await createUser(t, { isSuperuser: true })
    const operator = createAgent(t.app, { clock })
    await operator.login(admin.username, admin.password)
    const res = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: { scheduledStart: '03/15/2027 14:00' },
    })
    expect(res.statusCode).toBe(200)
    const changed = (await t.deliverAllMail()).filter((x) => x.subject.startsWith('Changed:'))
    expect(changed.map((x) => x.to).sort()).toEqual([host.user.email, m.user.email].sort())
    const after = parseIcs(changed[0]!.attachments![0]!.content).events[0]!
    expect(after.uid).toBe(before.uid)
    expect(after.sequence).toBe(before.sequence + 1)
    // 2 PM in New York on March 15, 2027 is EDT: 18:00 UTC.
    expect(after.start.toISOString()).toBe('2027-03-15T18:00:00.000Z')
    const [row] = await t.db
      .select({ sequence: podclubs.calendarSequence })
      .from(podclubs)
      .where(eq(podclubs.id, podclub.id))
    expect(row!.sequence).toBe(1)

    // A change of the Zoom link alone moves nothing: no mail, same SEQUENCE.
    await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: { zoomLink: 'https://zoom.example/j/1' },
    })
    expect((await t.deliverAllMail()).filter((x) => x.subject.startsWith('Changed:'))).toHaveLength(
      0,
    )
  })
})

describe('POST /podclubs/:podclubId/seat_waitlist/ with an Idempotency-Key', () => {
  it('repeats the first answer to a retry with the same key instead of leaving the line', async () => {
    const { podclub } = await fullPodclub()
    const m = await member()
    const join = (key: string) =>
      m.agent.post(`/api/v1/podclubs/${podclub.id}/seat_waitlist/`, undefined, {
        headers: { 'idempotency-key': key },
      })
    const first = await join('join-1')
    expect(seatWaitlistStateResponseSchema.parse(first.json()).data).toEqual({
      waitlisted: true,
      position: 1,
    })
    const retry = await join('join-1')
    expect(retry.json()).toEqual(first.json())
    expect((await feedEntry(podclub.id)).seat_waitlist.waiting).toEqual([m.user.username])
    // The same key on the seat call is another call's key: it does not replay this answer.
    const register = await m.agent.post(`/api/v1/register/${podclub.id}/`, undefined, {
      headers: { 'idempotency-key': 'join-1' },
    })
    expect(register.statusCode).toBe(409)
    expect((await join('leave-1')).json().data).toEqual({ waitlisted: false, position: null })
  })
})
