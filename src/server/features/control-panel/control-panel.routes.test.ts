import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { controlPanelResponseSchema } from '#contract/control-panel'
import {
  feedback,
  inviteCodes,
  jobs,
  outboxAttempts,
  outboxMessages,
  podcasts,
  podclubs,
  registrations,
  suggestions,
  users,
  waitlistEntries,
} from '../../db/schema/index'
import { CLUB_TIME_MESSAGES, formatClubDateTime } from '#contract/club-time'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { PANEL_LIMITS } from './control-panel.service'
import { monthlyBlastAs } from '../blasts/blasts.testing'

const clock = fixedClock('2026-12-01T15:00:00Z')
let t: TestApp
let operator: ReturnType<typeof createAgent>
let member: ReturnType<typeof createAgent>
beforeAll(async () => {
  t = await buildTestApp({ clock })
  const op = await createUser(t, { isSuperuser: true })
  const m = await createUser(t)
  operator = createAgent(t.app, { clock })
  member = createAgent(t.app, { clock })
  await operator.login(op.username, op.password)
  await member.login(m.username, m.password)
})
afterAll(() => t.close())

const DAY = 86_400_000
async function podclubIn(ahead: number, status: 'upcoming' | 'completed' = 'upcoming') {
  const host = await createUser(t)
  const [podcast] = await t.db
    .insert(podcasts)
    .values({ name: `Show ${Math.random()}` })
    .returning()
  const [podclub] = await t.db
    .insert(podclubs)
    .values({
      podcastId: podcast!.id,
      podmeisterId: host.id,
      episodeTitle: `Episode ${Math.random().toString(36).slice(2, 7)}`,
      startsAt: new Date(clock.now().getTime() + ahead),
      location: 'zoom',
      status,
      completedAt: status === 'completed' ? clock.now() : null,
    })
    .returning()
  return podclub!
}

/** A valid POST /controlpanel/podclubs/ body, two days ahead (too soon for a proposal). */
async function operatorPodclubBody(overrides: Record<string, unknown> = {}) {
  const host = await createUser(t)
  return {
    title: 'The operator episode',
    podcastName: 'Radiolab',
    keywordOne: 'science',
    keywordTwo: 'sound',
    keywordThree: 'stories',
    linkOne: 'https://example.com/episode',
    scheduledStart: formatClubDateTime(new Date(clock.now().getTime() + 2 * DAY)),
    description: 'A long enough description of the episode for the club to read first.',
    podmeisterNote: 'A long enough note from the podmeister about why this one is good.',
    location: 'zoom',
    podmeister: host.username,
    zoomLink: 'https://zoom.us/j/123456',
    ...overrides,
  }
}

/** Every operator call, with a body that would be valid. */
async function operatorCalls() {
  const [p1, p2, p3] = [
    await podclubIn(20 * DAY),
    await podclubIn(21 * DAY),
    await podclubIn(22 * DAY),
  ]
  const blast = { podclub_1: p1.id, podclub_2: p2.id, podclub_3: p3.id }
  const seated = await createUser(t)
  const [job] = await t.db.insert(jobs).values({ kind: 'monthly-blast' }).returning()
  const poll = {
    title: 'Next month',
    expires_at: new Date(clock.now().getTime() + 7 * DAY).toISOString(),
    options: [{ title: 'One' }, { title: 'Two' }],
  }
  return [
    ['GET', '/api/v1/controlpanel/', undefined],
    [
      'POST',
      '/api/v1/controlpanel/trigger/',
      { podclub_pk: p1.id, notice_type: 'min', confirm: true },
    ],
    ['POST', '/api/v1/testmonthlyblast/', blast],
    ['POST', '/api/v1/monthlyblast/', blast],
    ['GET', `/api/v1/controlpanel/jobs/${job!.id}/`, undefined],
    ['PATCH', `/api/v1/controlpanel/podclubs/${p2.id}/`, { location: 'nyc' }],
    ['PUT', `/api/v1/controlpanel/podclubs/${p2.id}/chatlog/`, { chatlog: '19:00:01 From a : hi' }],
    ['POST', '/api/v1/controlpanel/invite_codes/', { count: 2 }],
    ['POST', `/api/v1/register_admin/${p3.id}/${seated.username}/`, undefined],
    ['POST', '/api/v1/controlpanel/podclubs/', await operatorPodclubBody()],
    ['POST', '/api/v1/controlpanel/polls/', poll],
  ] as const
}

/** An API path as OpenAPI writes it ('/api/v1/controlpanel/podclubs/{id}/'), made callable. */
const callable = (path: string) => path.replace(/\{[^}]+\}/g, '1')

describe('operator calls', () => {
  it('are all in the matrix: every API call a member is refused is one of them', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>
    }
    const matrix = (await operatorCalls()).map(([method, url]) =>
      `${method} ${url}`.replace(/\/\d+\//g, '/1/').replace(/\/member[\w.]+\//, '/1/'),
    )
    // A member of its own: the probe must not log the shared one out.
    const prober = createAgent(t.app, { clock })
    const who = await createUser(t)
    await prober.login(who.username, who.password)
    const refused: string[] = []
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path === '/api/v1/logout/') continue
      for (const method of Object.keys(operations)) {
        if (method === 'head') continue
        const verb = method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
        const res = await prober.request(callable(path), {
          method: verb,
          ...(verb === 'GET' ? {} : { body: {} }),
        })
        if (res.statusCode === 403) refused.push(`${verb} ${callable(path)}`)
      }
    }
    expect(refused.sort()).toEqual(matrix.sort())
  })

  it('answer 401 to visitors and 403 to members, and change nothing', async () => {
    const before = (await t.db.select().from(outboxMessages)).length
    for (const [method, url, body] of await operatorCalls()) {
      const visitor = await createAgent(t.app).request(url, { method, body })
      expect(visitor.statusCode, `${method} ${url}`).toBe(401)
      const asMember = await member.request(url, { method, body })
      expect(asMember.statusCode, `${method} ${url}`).toBe(403)
    }
    expect((await t.db.select().from(outboxMessages)).length).toBe(before)
  })

  it('work for super users', async () => {
    for (const [method, url, body] of await operatorCalls()) {
      const res = await operator.request(url, { method, body })
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300)
    }
  })
})

describe('the control panel', () => {
  it('lists upcoming podclubs with their notice flags, codes, new users and e-mail activity', async () => {
    const podclub = await podclubIn(3 * DAY)
    await t.db.insert(inviteCodes).values([{ code: 'fresh-code' }])
    const newcomer = await createUser(t)
    await t.db.update(users).set({ memberSince: clock.now() }).where(eq(users.id, newcomer.id))
    const res = await operator.get('/api/v1/controlpanel/')
    const data = controlPanelResponseSchema.parse(res.json()).data
    const row = data.all_podclubs.find((p) => p.id === podclub.id)
    expect(row).toMatchObject({
      one_week_notice_sent: false,
      one_day_notice_sent: false,
      ten_min_notice_sent: false,
      status: 'upcoming',
      seats_left: 9,
    })
    expect(data.welcome_codes).toContainEqual({ code: 'fresh-code', active: true })
    expect(data.users_this_month).toContainEqual({
      username: newcomer.username,
      email: newcomer.email,
    })
  })

  it('bounds every list, so it stays fast with thousands of members and e-mails', async () => {
    const big = await buildTestApp({ clock })
    try {
      const op = await createUser(big, { isSuperuser: true })
      const agent = createAgent(big.app, { clock })
      await agent.login(op.username, op.password)
      const over = (limit: number) => Array.from({ length: limit + 1 }, (_, i) => i)
      const newcomers = await big.db
        .insert(users)
        .values(
          over(PANEL_LIMITS.users).map((i) => ({
            username: `newcomer.${i}`,
            email: `newcomer.${i}@example.com`,
            passwordHash: 'x',
            memberSince: clock.now(),
          })),
        )
        .returning({ id: users.id })
      const [podcast] = await big.db.insert(podcasts).values({ name: 'Many FM' }).returning()
      await big.db.insert(podclubs).values(
        over(PANEL_LIMITS.podclubs).map((i) => ({
          podcastId: podcast!.id,
          podmeisterId: newcomers[0]!.id,
          episodeTitle: `Episode ${i}`,
          startsAt: new Date(clock.now().getTime() + (i + 1) * DAY),
        })),
      )
      await big.db.insert(podclubs).values(
        over(PANEL_LIMITS.completed).map((i) => ({
          podcastId: podcast!.id,
          podmeisterId: newcomers[0]!.id,
          episodeTitle: `Past episode ${i}`,
          status: 'completed' as const,
          startsAt: new Date(clock.now().getTime() - (i + 2) * DAY),
          completedAt: new Date(clock.now().getTime() - (i + 1) * DAY),
        })),
      )
      await big.db
        .insert(inviteCodes)
        .values(over(PANEL_LIMITS.codes).map((i) => ({ code: `bulk-code-${i}` })))
      const sent = await big.db
        .insert(outboxMessages)
        .values(
          over(PANEL_LIMITS.emails).map((i) => ({
            toAddress: `reader.${i}@example.com`,
            subject: `Message ${i}`,
            textBody: 'hello',
            kind: 'test',
            status: 'delivered' as const,
            attempts: 1,
          })),
        )
        .returning({ id: outboxMessages.id })
      await big.db
        .insert(outboxAttempts)
        .values(sent.map((m) => ({ messageId: m.id, success: true, attemptedAt: clock.now() })))
      await big.db
        .insert(waitlistEntries)
        .values(over(PANEL_LIMITS.lists).map((i) => ({ email: `waiting.${i}@example.com` })))
      await big.db
        .insert(suggestions)
        .values(over(PANEL_LIMITS.lists).map((i) => ({ podcastLink: `https://example.com/${i}` })))
      await big.db
        .insert(feedback)
        .values(over(PANEL_LIMITS.lists).map((i) => ({ description: `Note ${i}` })))

      const data = controlPanelResponseSchema.parse(
        (await agent.get('/api/v1/controlpanel/')).json(),
      ).data
      expect(data.all_podclubs).toHaveLength(PANEL_LIMITS.podclubs)
      // The soonest first: the one furthest away is the one left out.
      expect(data.all_podclubs[0]!.episode_title).toBe('Episode 0')
      expect(data.recently_completed).toHaveLength(PANEL_LIMITS.completed)
      // The last completed first.
      expect(data.recently_completed[0]!.episode_title).toBe('Past episode 0')
      expect(data.recently_completed.every((p) => p.status === 'completed')).toBe(true)
      expect(data.email_tracker).toHaveLength(PANEL_LIMITS.emails)
      expect(data.welcome_codes).toHaveLength(PANEL_LIMITS.codes)
      expect(data.users_this_month).toHaveLength(PANEL_LIMITS.users)
      expect(data.waitlist).toHaveLength(PANEL_LIMITS.lists)
      expect(data.suggestions).toHaveLength(PANEL_LIMITS.lists)
      expect(data.feedback).toHaveLength(PANEL_LIMITS.lists)
      // The newest first where newest matters.
      expect(data.welcome_codes[0]!.code).toBe(`bulk-code-${PANEL_LIMITS.codes}`)
      expect(data.waitlist[0]!.email).toBe(`waiting.${PANEL_LIMITS.lists}@example.com`)
    } finally {
      await big.close()
    }
  })

  it('sends the 10-minute notice once, then refuses a second press', async () => {
    const podclub = await podclubIn(5 * 60_000)
    const attendee = await createUser(t)
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: attendee.id })
    const first = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: podclub.id,
      notice_type: 'min',
    })
    expect(first.json().data.ten_min_notice_sent).toBe(true)
    expect(first.json().data.notice_sent_at).toBe(clock.now().toISOString())
    const again = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: podclub.id,
      notice_type: 'min',
    })
    expect(again.statusCode).toBe(409)
    const sent = (await t.db.select().from(outboxMessages)).filter((m) =>
      m.dedupeKey?.startsWith(`reminder-10m:podclub-${podclub.id}:`),
    )
    expect(sent).toHaveLength(2)
  })

  it('asks to confirm a notice more than an hour ahead, saying what it sends, and leaves the reminders to come', async () => {
    const podclub = await podclubIn(41 * DAY)
    const unconfirmed = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: podclub.id,
      notice_type: 'min',
    })
    expect(unconfirmed.statusCode).toBe(409)
    expect(unconfirmed.json().detail).toMatch(
      /^It starts in 41 days \(.*\)\. Sending the notice now e-mails its podmeister and attendees the Zoom link and says it starts in 41 days\. The 1-week, 1-day and 10-minute reminders still go out on time\. Confirm to send it\.$/,
    )
    const mailOf = async () =>
      (await t.db.select().from(outboxMessages)).filter((m) =>
        m.dedupeKey?.includes(`:podclub-${podclub.id}:`),
      )
    expect(await mailOf()).toHaveLength(0)
    const confirmed = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: podclub.id,
      notice_type: 'min',
      confirm: true,
    })
    expect(confirmed.statusCode).toBe(200)
    expect(confirmed.json().data).toMatchObject({
      ten_min_notice_sent: false,
      notice_sent_at: clock.now().toISOString(),
    })
    const [mail] = await mailOf()
    expect(mail!.subject).toMatch(/starts in 41 days$/)
    const again = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: podclub.id,
      notice_type: 'min',
      confirm: true,
    })
    expect(again.statusCode).toBe(409)
    expect(await mailOf()).toHaveLength(1)
  })

  it('marks a podclub complete once; unknown ids are 404', async () => {
    const podclub = await podclubIn(-2 * 3_600_000)
    const done = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: podclub.id,
      notice_type: 'complete',
    })
    expect(done.json().data.status).toBe('completed')
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, podclub.id))
    expect(row!.completedAt).toEqual(clock.now())
    expect(
      (
        await operator.post('/api/v1/controlpanel/trigger/', {
          podclub_pk: podclub.id,
          notice_type: 'complete',
        })
      ).statusCode,
    ).toBe(409)
    expect(
      (
        await operator.post('/api/v1/controlpanel/trigger/', {
          podclub_pk: 999999,
          notice_type: 'min',
        })
      ).statusCode,
    ).toBe(404)
    const bad = await operator.post('/api/v1/controlpanel/trigger/', {
      podclub_pk: 'x',
      notice_type: 'soon',
    })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json()).sort()).toEqual(['notice_type', 'podclub_pk'])
  })

  it('refuses to complete a podclub before it starts, by Mark Complete or by an edit, and changes nothing', async () => {
    // Tuesday, December 8, 2026, 7:30 PM in New York.
    const podclub = await podclubIn(7 * DAY + 9.5 * 3_600_000)
    const seated = await createUser(t)
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: seated.id })
    const notYet =
      'This podclub has not started yet: it can be completed from Tuesday, December 8, 2026 at 7:30 PM EST.'
    const trigger = () =>
      operator.post('/api/v1/controlpanel/trigger/', {
        podclub_pk: podclub.id,
        notice_type: 'complete',
      })
    const early = await trigger()
    expect(early.statusCode).toBe(409)
    expect(early.json()).toEqual({ detail: notYet, code: 'CONFLICT' })
    const patched = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: { status: 'completed' },
    })
    expect(patched.statusCode).toBe(409)
    expect(patched.json().detail).toBe(notYet)
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, podclub.id))
    expect(row).toMatchObject({ status: 'upcoming', completedAt: null })
    // Nothing under past podclubs, no cred for anyone.
    const seatedAgent = createAgent(t.app, { clock })
    await seatedAgent.login(seated.username, seated.password)
    const profile = (await seatedAgent.get('/api/v1/profile/')).json().data
    expect(profile.past_podclubs).toEqual([])
    expect(profile.user.profile.cred).toBe(0)

    // From its start time on, it can be completed.
    clock.set(podclub.startsAt)
    try {
      const done = await trigger()
      expect(done.statusCode).toBe(200)
      expect(done.json().data.status).toBe('completed')
      // A completed podclub keeps the date it took place on.
      const moved = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
        method: 'PATCH',
        body: { scheduledStart: '01/05/2027 19:00' },
      })
      expect(moved.statusCode).toBe(409)
      expect(moved.json().detail).toBe('This podclub is completed: its date can no longer move.')
      const panel = controlPanelResponseSchema.parse(
        (await operator.get('/api/v1/controlpanel/')).json(),
      ).data
      expect(panel.all_podclubs.map((p) => p.id)).not.toContain(podclub.id)
      expect(panel.recently_completed[0]).toMatchObject({ id: podclub.id, status: 'completed' })
    } finally {
      clock.set('2026-12-01T15:00:00Z')
    }
  })

  it('changes date (New York time), location, Zoom link and status; refuses a past date', async () => {
    const podclub = await podclubIn(30 * DAY)
    const res = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: {
        scheduledStart: '04/10/2027 19:30',
        location: 'nyc',
        zoomLink: 'https://zoom.example/j/9',
      },
    })
    expect(res.json().data).toMatchObject({
      starts_at: '2027-04-10T23:30:00.000Z',
      pretty_time: '7:30 PM EDT',
      location: 'nyc',
      zoom_link: 'https://zoom.example/j/9',
    })
    const past = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: { scheduledStart: '01/01/2020 10:00' },
    })
    expect(past.statusCode).toBe(400)
    expect(past.json()).toEqual({ scheduledStart: [CLUB_TIME_MESSAGES.past] })
    const empty = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: {},
    })
    expect(empty.statusCode).toBe(400)
  })

  it('refuses a time the spring-forward skips, as the wizard and the create do, and moves nothing', async () => {
    const podclub = await podclubIn(30 * DAY)
    const edit = (scheduledStart: string) =>
      operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
        method: 'PATCH',
        body: { scheduledStart },
      })
    // 02:30 does not exist in New York on March 14, 2027: clocks go from 02:00 to 03:00.
    const gap = await edit('03/14/2027 02:30')
    expect(gap.statusCode).toBe(400)
    expect(gap.json()).toEqual({ scheduledStart: [CLUB_TIME_MESSAGES.noSuchTime] })
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, podclub.id))
    expect(row!.startsAt.getTime()).toBe(podclub.startsAt.getTime())
    const created = await operator.post(
      '/api/v1/controlpanel/podclubs/',
      await operatorPodclubBody({ scheduledStart: '03/14/2027 02:30' }),
    )
    expect(created.json()).toEqual(gap.json())

    // The hour after the gap, and the first of the autumn's repeated hour (EDT), are fine.
    expect((await edit('03/14/2027 03:30')).json().data.starts_at).toBe('2027-03-14T07:30:00.000Z')
    const repeated = await edit('11/07/2027 01:30')
    expect(repeated.json().data).toMatchObject({
      starts_at: '2027-11-07T05:30:00.000Z',
      pretty_time: '1:30 AM EDT',
    })
    // ISO 8601 with an offset still says exactly which instant.
    expect((await edit('2027-11-07T01:30:00-05:00')).json().data.pretty_time).toBe('1:30 AM EST')
    expect((await edit('next tuesday')).json()).toEqual({
      scheduledStart: [CLUB_TIME_MESSAGES.invalid],
    })
  })

  it('saves a chat log and makes single-use invite codes', async () => {
    const podclub = await podclubIn(-DAY)
    const log = '19:00:01 From maya.r to Everyone: hello\r\nsecond line'
    await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/chatlog/`, {
      method: 'PUT',
      body: { chatlog: log },
    })
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, podclub.id))
    expect(row!.chatlog).toBe('19:00:01 From maya.r to Everyone: hello\nsecond line')
    const codes = await operator.post('/api/v1/controlpanel/invite_codes/', { count: 3 })
    expect(codes.statusCode).toBe(201)
    const list: string[] = codes.json().data.codes
    expect(new Set(list).size).toBe(3)
    const check = await createAgent(t.app).post('/api/v1/validate_invite_code/', { code: list[0] })
    expect(check.statusCode).toBe(200)
    expect(
      (await operator.post('/api/v1/controlpanel/invite_codes/', { count: 0 })).statusCode,
    ).toBe(400)
  })
})

describe('blasts', () => {
  it('refuses unknown, completed and repeated podclubs', async () => {
    const [a, b] = [await podclubIn(10 * DAY), await podclubIn(11 * DAY)]
    const done = await podclubIn(-DAY, 'completed')
    const send = (ids: number[]) =>
      operator.post('/api/v1/monthlyblast/', {
        podclub_1: ids[0],
        podclub_2: ids[1],
        podclub_3: ids[2],
      })
    const unknown = await send([a.id, b.id, 999999])
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().detail).toBe('podclub 999999 (podclub_3) does not exist.')
    const completed = await send([a.id, done.id, b.id])
    expect(completed.statusCode).toBe(400)
    expect(completed.json().detail).toMatch(/is completed/)
    const started = await podclubIn(-60_000)
    const late = await send([a.id, b.id, started.id])
    expect(late.statusCode).toBe(400)
    expect(late.json().detail).toBe(
      `podclub ${started.id} (podclub_3) has already started: a blast lists upcoming podclubs only.`,
    )
    const repeated = await send([a.id, a.id, b.id])
    expect(repeated.statusCode).toBe(400)
    expect(repeated.json()).toEqual({ non_field_errors: ['Choose three different podclubs'] })
  })

  it('sends the test blast to super users only, and the monthly one to every subscribed member once', async () => {
    const [a, b, c] = [
      await podclubIn(10 * DAY),
      await podclubIn(11 * DAY),
      await podclubIn(12 * DAY),
    ]
    const body = { podclub_1: a.id, podclub_2: b.id, podclub_3: c.id }
    const leaver = await createUser(t)
    await t.db
      .update(users)
      .set({ blastsUnsubscribedAt: clock.now() })
      .where(eq(users.id, leaver.id))
    const everyone = await t.db.select().from(users)

    const test = await operator.post('/api/v1/testmonthlyblast/', body)
    expect(test.json().data.queued).toBe(everyone.filter((u) => u.isSuperuser).length)

    const monthly = await monthlyBlastAs(t, operator, body)
    const subscribed = everyone.filter((u) => u.blastsUnsubscribedAt === null)
    expect(monthly.result).toEqual({ queued: subscribed.length })
    const again = await monthlyBlastAs(t, operator, body)
    expect(again.result).toEqual({ queued: 0 })

    const mail = (await t.db.select().from(outboxMessages)).filter((m) =>
      m.dedupeKey?.startsWith(`blast-2026-12-${a.id}-${b.id}-${c.id}:`),
    )
    expect(mail.map((m) => m.toAddress).sort()).toEqual(subscribed.map((u) => u.email).sort())
    const one = mail[0]!
    expect(one.textBody).toContain(a.episodeTitle)
    expect(one.textBody).toContain(`http://podclub.test/podclubs/${c.id}`)
    expect(one.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    // The headers travel with the message to the mail server.
    let delivered = await t.deliverMail()
    while (delivered.length > 0 && !delivered.some((m) => m.headers?.['List-Unsubscribe'])) {
      delivered = await t.deliverMail()
    }
    const sentBlast = delivered.find((m) => m.headers?.['List-Unsubscribe'])
    expect(sentBlast?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    expect(one.headers?.['List-Unsubscribe']).toMatch(
      /^<http:\/\/podclub\.test\/unsubscribe\/one-click\/\d+\/[\w-]+>$/,
    )
  })

  it('lets a member unsubscribe in one click from the link, and later blasts skip them', async () => {
    const [a, b, c] = [
      await podclubIn(40 * DAY),
      await podclubIn(41 * DAY),
      await podclubIn(42 * DAY),
    ]
    const body = { podclub_1: a.id, podclub_2: b.id, podclub_3: c.id }
    const reader = await createUser(t)
    await monthlyBlastAs(t, operator, body)
    const [mail] = (await t.db.select().from(outboxMessages)).filter(
      (m) => m.kind === 'monthly-blast' && m.toAddress === reader.email,
    )
    const oneClick = mail!
      .headers!['List-Unsubscribe']!.slice(1, -1)
      .replace('http://podclub.test', '')
    const forged = await t.app.inject({
      method: 'POST',
      url: oneClick.replace(/\/[\w-]+$/, '/forged'),
    })
    expect(forged.statusCode).toBe(404)
    const res = await t.app.inject({
      method: 'POST',
      url: oneClick,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(res.statusCode).toBe(200)
    const [row] = await t.db.select().from(users).where(eq(users.id, reader.id))
    expect(row!.blastsUnsubscribedAt).not.toBeNull()

    // The page's link works the same way through the API, and again without harm.
    const page = mail!.textBody.match(/unsubscribe\/(\d+)\/([\w-]+)/)!
    const viaPage = await createAgent(t.app).post('/api/v1/unsubscribe/', {
      uid: Number(page[1]),
      token: page[2],
    })
    expect(viaPage.statusCode).toBe(200)

    const [d, e, f] = [
      await podclubIn(43 * DAY),
      await podclubIn(44 * DAY),
      await podclubIn(45 * DAY),
    ]
    await monthlyBlastAs(t, operator, { podclub_1: d.id, podclub_2: e.id, podclub_3: f.id })
    const later = (await t.db.select().from(outboxMessages)).filter(
      (m) => m.kind === 'monthly-blast' && m.toAddress === reader.email,
    )
    expect(later).toHaveLength(1)
  })
})

describe('quick registration', () => {
  const register = (podclubId: number, username: string) =>
    operator.request(`/api/v1/register_admin/${podclubId}/${username}/`, { method: 'POST' })

  it('seats a member once, counts seats and never goes past 9', async () => {
    const podclub = await podclubIn(10 * DAY)
    const people = await Promise.all(Array.from({ length: 10 }, () => createUser(t)))
    const first = await register(podclub.id, people[0]!.username.toUpperCase())
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toEqual({ data: { registered: true, seats_left: 8 } })

    const again = await register(podclub.id, people[0]!.username)
    expect(again.statusCode).toBe(409)
    expect(again.json().detail).toBe('This member is already registered for this podclub.')

    const rest = await Promise.all(people.slice(1).map((p) => register(podclub.id, p.username)))
    expect(rest.map((r) => r.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 409,
    ])
    expect(rest.find((r) => r.statusCode === 409)!.json().detail).toBe('No seats left')
    const held = await t.db
      .select()
      .from(registrations)
      .where(eq(registrations.podclubId, podclub.id))
    expect(held).toHaveLength(9)
  })

  it('refuses the podmeister, over and cancelled podclubs, and unknown names or ids', async () => {
    const podclub = await podclubIn(10 * DAY)
    const [host] = await t.db.select().from(users).where(eq(users.id, podclub.podmeisterId))
    const podmeister = await register(podclub.id, host!.username)
    expect(podmeister.statusCode).toBe(409)
    expect(podmeister.json().detail).toMatch(/podmeister/)

    const someone = await createUser(t)
    const done = await podclubIn(-DAY, 'completed')
    expect((await register(done.id, someone.username)).json().detail).toBe(
      'This podclub has already taken place.',
    )
    const started = await podclubIn(-60_000)
    expect((await register(started.id, someone.username)).json().detail).toBe(
      'This podclub has already started.',
    )
    const cancelled = await podclubIn(5 * DAY)
    await t.db.update(podclubs).set({ status: 'cancelled' }).where(eq(podclubs.id, cancelled.id))
    expect((await register(cancelled.id, someone.username)).statusCode).toBe(409)

    const nobody = await register(podclub.id, 'no.such.member')
    expect(nobody.statusCode).toBe(404)
    expect(nobody.json().detail).toBe("No member is called 'no.such.member'.")
    const noPodclub = await register(2_000_000_000, someone.username)
    expect(noPodclub.statusCode).toBe(404)
    expect(noPodclub.json().detail).toBe('Podclub not found')
  })
})

describe('creating a podclub', () => {
  const create = async (overrides: Record<string, unknown> = {}) =>
    operator.request('/api/v1/controlpanel/podclubs/', {
      method: 'POST',
      body: await operatorPodclubBody(overrides),
    })

  it('takes any future date and a podmeister, and reuses a podcast whatever its case', async () => {
    const [existing] = await t.db.insert(podcasts).values({ name: 'Serial Tales' }).returning()
    const res = await create({ podcastName: 'serial tales' })
    expect(res.statusCode, res.body).toBe(201)
    const created = res.json().data
    expect(created.status).toBe('upcoming')
    expect(created.podcast.name).toBe('Serial Tales')
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, created.id))
    expect(row!.podcastId).toBe(existing!.id)
    expect(row!.zoomLink).toBe('https://zoom.us/j/123456')
    expect(row!.startsAt.getTime()).toBe(clock.now().getTime() + 2 * DAY)

    const listed = await operator.request('/api/v1/controlpanel/')
    const upcoming = controlPanelResponseSchema.parse(listed.json()).data.all_podclubs
    expect(upcoming.map((p) => p.id)).toContain(created.id)

    const fresh = await create({ podcastName: 'A Brand New Show' })
    expect(fresh.json().data.podcast.name).toBe('A Brand New Show')
  })

  it('refuses a past date, an unknown podmeister and proposal mistakes with their messages', async () => {
    const past = await create({
      scheduledStart: formatClubDateTime(new Date(clock.now().getTime() - 60 * 60_000)),
    })
    expect(past.statusCode).toBe(400)
    expect(past.json()).toEqual({ scheduledStart: [CLUB_TIME_MESSAGES.past] })

    const nobody = await create({ podmeister: 'no.such.member' })
    expect(nobody.statusCode).toBe(400)
    expect(nobody.json()).toEqual({ podmeister: ["No member is called 'no.such.member'."] })

    const short = await create({ description: 'too short', podmeister: '' })
    expect(short.statusCode).toBe(400)
    expect(short.json()).toEqual({
      description: ['Description must be at least 50 characters long'],
      podmeister: ['Podmeister username is required'],
    })
  })
})

describe('the Zoom link of a podclub', () => {
  it('takes only web addresses as a Zoom link, when creating and when editing', async () => {
    const podclub = await podclubIn(30 * DAY)
    for (const zoomLink of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'ftp://zoom.example/j/9',
    ]) {
      const created = await operator.post(
        '/api/v1/controlpanel/podclubs/',
        await operatorPodclubBody({ zoomLink }),
      )
      expect(created.statusCode, zoomLink).toBe(400)
      expect(created.json(), zoomLink).toEqual({ zoomLink: ['Please enter a valid URL'] })
      const edited = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
        method: 'PATCH',
        body: { zoomLink },
      })
      expect(edited.statusCode, zoomLink).toBe(400)
      expect(edited.json(), zoomLink).toEqual({ zoomLink: ['Please enter a valid URL'] })
    }
    const [row] = await t.db.select().from(podclubs).where(eq(podclubs.id, podclub.id))
    expect(row!.zoomLink).toBe('')
    const http = await operator.request(`/api/v1/controlpanel/podclubs/${podclub.id}/`, {
      method: 'PATCH',
      body: { zoomLink: 'http://zoom.example/j/10' },
    })
    expect(http.json().data.zoom_link).toBe('http://zoom.example/j/10')
  })
})
