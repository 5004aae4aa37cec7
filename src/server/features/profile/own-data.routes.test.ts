import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import { getPodclubDetailResponseSchema } from '#contract/podclub-detail'
import {
  FORMER_MEMBER_NAME,
  getProfileResponseSchema,
  LAST_SUPERUSER_MESSAGE,
  myDataSchema,
  WRONG_PASSWORD_MESSAGE,
} from '#contract/profile'
import {
  hindsights,
  inviteCodes,
  outboxMessages,
  podclubs,
  registrations,
  seatWaitlist,
  sessions,
  users,
  voteCodes,
  waitlistEntries,
} from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import {
  buildTestApp,
  createAgent,
  createUser,
  loggedInMember,
  type TestApp,
} from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { createPollAs, operatorAgent, pollBody, requestCode } from '../polls/polls.testing'
import { readSplashStats } from '../splash/splash.routes'

const clock = fixedClock('2027-01-04T15:00:00Z')
const DAY = 86_400_000
const inDays = (days: number) => new Date(clock.now().getTime() + days * DAY)

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

const member = () => loggedInMember(t, { clock })
type Member = Awaited<ReturnType<typeof member>>

/** A podclub `days` ahead whose seats (9 unless said) are taken by new members. */
async function fullPodclub(days: number, taken = 9) {
  const host = await createUser(t)
  const podclub = await insertPodclub(t.db, host.id, { startsAt: inDays(days) })
  const holders: Member[] = []
  for (let i = 0; i < taken; i++) {
    const m = await member()
    expect((await m.agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
    holders.push(m)
  }
  return { podclub, host, holders }
}

const joinWaitlist = (m: Member, podclubId: number) =>
  m.agent.post(`/api/v1/podclubs/${podclubId}/seat_waitlist/`)

const deleteAccount = (m: Member, password = m.user.password) =>
  m.agent.post('/api/v1/profile/delete/', { password })

describe('GET /profile/data/', () => {
  it('answers 401 to visitors', async () => {
    expect((await createAgent(t.app).get('/api/v1/profile/data/')).statusCode).toBe(401)
  })

  it("gives the member their account, seats, podclubs, hindsights, votes and e-mails, and nobody else's", async () => {
    const me = await member()
    const other = await member()
    await t.db
      .update(users)
      .set({ city: 'Queens', source: 'a friend' })
      .where(eq(users.id, me.user.id))

    const hosted = await insertPodclub(t.db, me.user.id, {
      startsAt: inDays(20),
      description: 'Why this episode matters to me',
      keywordOne: 'memory',
      linkOne: 'https://example.com/episode',
    })
    const past = await insertPodclub(t.db, other.user.id, {
      startsAt: inDays(-20),
      status: 'completed',
      completedAt: inDays(-20),
    })
    await t.db.insert(registrations).values([
      { podclubId: past.id, userId: me.user.id },
      { podclubId: hosted.id, userId: other.user.id },
    ])
    await t.db.insert(hindsights).values([
      { podclubId: past.id, userId: me.user.id, message: 'I keep thinking about it' },
      { podclubId: past.id, userId: other.user.id, message: 'Their private thought' },
    ])
    const { podclub: full } = await fullPodclub(10)
    expect((await joinWaitlist(me, full.id)).statusCode).toBe(200)
    expect(
      (
        await me.agent.post('/api/v1/suggest_podcast/', {
          podcastLink: 'https://example.com/show',
          reason: 'great host',
        })
      ).statusCode,
    ).toBe(201)
    expect(
      (
        await me.agent.post('/api/v1/feedback/', {
          podcastLink: '',
          description: 'More Zoom podclubs please',
        })
      ).statusCode,
    ).toBe(201)
    // An invite names a friend's address: theirs, not mine.
    expect(
      (await me.agent.post('/api/v1/invite/', { email: 'friend@example.com' })).statusCode,
    ).toBe(200)
    // A reset link is a secret: its e-mail is listed, its link is not.
    expect(
      (await createAgent(t.app).post('/api/v1/auth/passwordreset/', { email: me.user.email }))
        .statusCode,
    ).toBe(200)
    const resetToken = (await t.deliverAllMail())
      .find((m) => m.to === me.user.email && m.subject === 'Reset your podclub password')!
      .text.match(/password-reset\/([^\s/]+)/)![1]!

    const operator = await operatorAgent(t)
    const poll = await createPollAs(operator, pollBody(t))
    const myCode = await requestCode(t, poll.id, me.user.email)
    const theirCode = await requestCode(t, poll.id, other.user.email, '10.100.0.2')
    const [first, second] = poll.results
    const vote = (code: string, optionId: number) =>
      createAgent(t.app).post(`/api/v1/polls/${poll.id}/cast/`, { voteCode: code, optionId })
    expect((await vote(myCode, first!.id)).statusCode).toBe(200)
    expect((await vote(theirCode, second!.id)).statusCode).toBe(200)
    const calendarUrl = getProfileResponseSchema.parse(
      (await me.agent.get('/api/v1/profile/')).json(),
    ).data.calendar_url

    const res = await me.agent.get('/api/v1/profile/data/')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    const data = myDataSchema.parse(res.json().data)

    expect(data.exported_at).toBe(clock.now().toISOString())
    expect(data.account).toEqual({
      username: me.user.username,
      email: me.user.email,
      city: 'Queens',
      source: 'a friend',
      member_since: me.user.memberSince.toISOString(),
      email_confirmed_at: null,
      is_superuser: false,
      blasts_unsubscribed_at: null,
    })
    expect(data.seats.map((s) => [s.podclub_id, s.status])).toEqual([[past.id, 'completed']])
    expect(data.seat_waitlist.map((w) => w.podclub_id)).toEqual([full.id])
    expect(data.podclubs_hosted).toHaveLength(1)
    expect(data.podclubs_hosted[0]).toMatchObject({
      podclub_id: hosted.id,
      status: 'upcoming',
      keywords: ['memory'],
      links: ['https://example.com/episode'],
      description: 'Why this episode matters to me',
    })
    expect(data.hindsights.map((h) => h.message)).toEqual(['I keep thinking about it'])
    expect(data.votes).toEqual([
      expect.objectContaining({ poll_id: poll.id, option: first!.title }),
    ])
    expect(data.suggestions).toEqual([
      expect.objectContaining({ podcast_link: 'https://example.com/show', reason: 'great host' }),
    ])
    expect(data.feedback.map((f) => f.description)).toEqual(['More Zoom podclubs please'])
    expect(data.emails.map((e) => [e.subject, e.status])).toEqual(
      expect.arrayContaining([
        ['Reset your podclub password', 'delivered'],
        [`Your vote code for ${poll.title}`, 'delivered'],
      ]),
    )

    // Nothing of anyone else, and no secret.
    const file = res.body
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id))
    const sessionId = me.agent.jar.get('sessionid')!.value
    for (const secret of [
      other.user.username,
      other.user.email,
      'friend@example.com',
      'Their private thought',
      row!.passwordHash,
      row!.calendarKey,
      calendarUrl.split('/').pop()!.replace('.ics', ''),
      sessionId,
      resetToken,
      myCode,
    ]) {
      expect(file).not.toContain(secret)
    }
  })
})

describe('POST /profile/delete/', () => {
  it('answers 401 to visitors and 403 to a write without the CSRF token', async () => {
    expect(
      (await createAgent(t.app).post('/api/v1/profile/delete/', { password: 'x' })).statusCode,
    ).toBe(401)
    const me = await member()
    const res = await me.agent.post(
      '/api/v1/profile/delete/',
      { password: me.user.password },
      { csrf: false },
    )
    expect(res.statusCode).toBe(403)
    expect((await me.agent.get('/api/v1/profile/')).statusCode).toBe(200)
  })

  it('refuses a wrong or missing password on its field, and changes nothing', async () => {
    const me = await member()
    const wrong = await deleteAccount(me, 'not my password')
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toEqual({ password: [WRONG_PASSWORD_MESSAGE] })
    const empty = await deleteAccount(me, '  ')
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toEqual({ password: ['Password is required'] })
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id))
    expect(row).toMatchObject({ username: me.user.username, deletedAt: null })
    expect((await me.agent.get('/api/v1/profile/')).statusCode).toBe(200)
  })

  it('ends every session, frees seats to the seat waitlist, cancels hosted podclubs, keeps hindsights as a former member', async () => {
    const me = await member()
    const otherBrowser = createAgent(t.app, { clock })
    await otherBrowser.login(me.user.username, me.user.password)

    // A full podclub where I hold a seat and someone waits for one.
    const { podclub: full } = await fullPodclub(10, 8)
    expect((await me.agent.post(`/api/v1/register/${full.id}/`)).statusCode).toBe(200)
    const waiting = await member()
    expect((await joinWaitlist(waiting, full.id)).statusCode).toBe(200)
    // Another full podclub where I am in line.
    const { podclub: other } = await fullPodclub(12)
    expect((await joinWaitlist(me, other.id)).statusCode).toBe(200)
    // A podclub I host, with a member holding a seat; one I hosted that has happened, with my
    // hindsight and another attendee's.
    const guest = await member()
    const hosting = await insertPodclub(t.db, me.user.id, { startsAt: inDays(30) })
    expect((await guest.agent.post(`/api/v1/register/${hosting.id}/`)).statusCode).toBe(200)
    const happened = await insertPodclub(t.db, me.user.id, {
      startsAt: inDays(-3),
      status: 'completed',
      completedAt: inDays(-3),
    })
    await t.db.insert(registrations).values({ podclubId: happened.id, userId: guest.user.id })
    await t.db.insert(hindsights).values({
      podclubId: happened.id,
      userId: me.user.id,
      message: 'Thanks all, what a night',
    })
    // Mail sent to me before, and my address elsewhere.
    await t.db.insert(waitlistEntries).values({ email: me.user.email.toUpperCase() })
    await t.db
      .insert(inviteCodes)
      .values({ code: `welcome-${me.user.id}`, sentToEmail: me.user.email })
    await t.deliverAllMail()
    // Counted as the splash counts (its endpoint answers from a count up to 10 s old).
    const membersBefore = (await readSplashStats(t.db)).member_count

    const res = await deleteAccount(me)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ data: { ok: true } })

    // Every session of mine has ended, and the name and password no longer log in.
    expect((await me.agent.get('/api/v1/profile/')).statusCode).toBe(401)
    expect((await otherBrowser.get('/api/v1/profile/')).statusCode).toBe(401)
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, me.user.id))).toEqual([])
    const login = await createAgent(t.app).post('/api/v1/login/', {
      username: me.user.username,
      password: me.user.password,
    })
    expect(login.statusCode).toBe(400)

    // My seat went to the first in line, who was told; I was mailed nothing.
    const seatsOf = async (podclubId: number) =>
      (
        await t.db
          .select({ userId: registrations.userId })
          .from(registrations)
          .where(eq(registrations.podclubId, podclubId))
      ).map((r) => r.userId)
    expect(await seatsOf(full.id)).toContain(waiting.user.id)
    expect(await seatsOf(full.id)).not.toContain(me.user.id)
    expect(await seatsOf(full.id)).toHaveLength(9)
    expect(
      await t.db.select().from(seatWaitlist).where(eq(seatWaitlist.userId, me.user.id)),
    ).toEqual([])
    // The podclub I hosted is cancelled and its member told; the one that happened stays.
    const statusOf = async (id: number) =>
      (await t.db.select({ status: podclubs.status }).from(podclubs).where(eq(podclubs.id, id)))[0]!
        .status
    expect(await statusOf(hosting.id)).toBe('cancelled')
    expect(await statusOf(happened.id)).toBe('completed')
    const mail = await t.deliverAllMail()
    expect(mail.filter((m) => m.to === me.user.email)).toEqual([])
    expect(mail.map((m) => [m.to, m.subject.split(':')[0]])).toEqual(
      expect.arrayContaining([
        [waiting.user.email, "You're in"],
        [guest.user.email, 'Cancelled'],
      ]),
    )

    // What I wrote stays, from 'a former member', as does my place in the podclub that happened.
    const detail = getPodclubDetailResponseSchema.parse(
      (await guest.agent.get(`/api/v1/podclubs/${happened.id}/`)).json(),
    ).data
    expect(detail.podmeister.username).toBe(FORMER_MEMBER_NAME)
    expect(detail.hindsights).toEqual([
      { username: FORMER_MEMBER_NAME, message: 'Thanks all, what a night' },
    ])

    // Nothing personal is left, and nothing mentions my address.
    const [row] = await t.db.select().from(users).where(eq(users.id, me.user.id))
    expect(row).toMatchObject({
      username: FORMER_MEMBER_NAME,
      email: '',
      passwordHash: '',
      city: '',
      source: '',
      isSuperuser: false,
      calendarTokenHash: null,
    })
    expect(row!.deletedAt).toEqual(clock.now())
    expect(
      await t.db
        .select()
        .from(outboxMessages)
        .where(sql`lower(${outboxMessages.toAddress}) = lower(${me.user.email})`),
    ).toEqual([])
    expect(
      await t.db
        .select()
        .from(waitlistEntries)
        .where(sql`lower(${waitlistEntries.email}) = lower(${me.user.email})`),
    ).toEqual([])
    expect(
      await t.db.select().from(inviteCodes).where(eq(inviteCodes.sentToEmail, me.user.email)),
    ).toEqual([])
    const membersAfter = (await readSplashStats(t.db)).member_count
    expect(membersAfter).toBe(membersBefore - 1)

    // The username and the address are free for a new sign-up.
    await t.db.insert(inviteCodes).values({ code: `welcome-back-${me.user.id}` })
    const again = await createAgent(t.app).post('/api/v1/signup/', {
      username: me.user.username,
      email: me.user.email,
      password: 'a brand new password',
      inviteCode: `welcome-back-${me.user.id}`,
      city: 'Brooklyn',
      source: 'came back',
    })
    expect(again.statusCode, again.body).toBe(201)
  })

  it('forgets the address in votes, keeping the vote counted', async () => {
    const me = await member()
    const operator = await operatorAgent(t)
    const poll = await createPollAs(operator, pollBody(t))
    const code = await requestCode(t, poll.id, me.user.email, '10.100.0.3')
    const optionId = poll.results[0]!.id
    const cast = await createAgent(t.app).post(`/api/v1/polls/${poll.id}/cast/`, {
      voteCode: code,
      optionId,
    })
    expect(cast.statusCode).toBe(200)
    const counted = (p: { results: { id: number; votes: number }[] }) =>
      p.results.find((o) => o.id === optionId)?.votes
    const before = counted(cast.json().data)
    expect(before).toBe(1)

    expect((await deleteAccount(me)).statusCode).toBe(200)
    expect(
      await t.db
        .select()
        .from(voteCodes)
        .where(sql`lower(${voteCodes.email}) = lower(${me.user.email})`),
    ).toEqual([])
    const after = await createAgent(t.app).get(`/api/v1/polls/${poll.id}/`)
    expect(counted(after.json().data)).toEqual(before)
  })

  it('keeps a seat in a podclub that has started, and a hosted one that has started', async () => {
    const me = await member()
    const host = await createUser(t)
    const started = await insertPodclub(t.db, host.id, { startsAt: inDays(-1 / 24) })
    await t.db.insert(registrations).values({ podclubId: started.id, userId: me.user.id })
    const mine = await insertPodclub(t.db, me.user.id, { startsAt: inDays(-1 / 48) })

    expect((await deleteAccount(me)).statusCode).toBe(200)
    const [seat] = await t.db
      .select()
      .from(registrations)
      .where(and(eq(registrations.podclubId, started.id), eq(registrations.userId, me.user.id)))
    expect(seat).toBeDefined()
    const [hosted] = await t.db.select().from(podclubs).where(eq(podclubs.id, mine.id))
    expect(hosted!.status).toBe('upcoming')
  })

  it('refuses the last super user, and lets one of two go', async () => {
    // Super users this file has made so far (operators of the polls) are gone first.
    await t.db.update(users).set({ isSuperuser: false }).where(eq(users.isSuperuser, true))
    const first = await member()
    const second = await member()
    await t.db
      .update(users)
      .set({ isSuperuser: true })
      .where(sql`${users.id} in (${first.user.id}, ${second.user.id})`)

    expect((await deleteAccount(first)).statusCode).toBe(200)
    const last = await deleteAccount(second)
    expect(last.statusCode).toBe(409)
    expect(last.json()).toMatchObject({ detail: LAST_SUPERUSER_MESSAGE, code: 'CONFLICT' })
    expect((await second.agent.get('/api/v1/profile/')).statusCode).toBe(200)
  })
})

describe('the password check of POST /profile/delete/', () => {
  it('allows 10 tries per 15 minutes per member, then 429', async () => {
    const limited = await buildTestApp({ clock, rateLimits: true })
    try {
      const me = await loggedInMember(limited, { clock })
      for (let i = 0; i < 10; i++) {
        expect(
          (await me.agent.post('/api/v1/profile/delete/', { password: 'guess' })).statusCode,
        ).toBe(400)
      }
      const over = await me.agent.post('/api/v1/profile/delete/', { password: me.user.password })
      expect(over.statusCode).toBe(429)
      expect(over.headers['retry-after']).toBeDefined()
      const [row] = await limited.db.select().from(users).where(eq(users.id, me.user.id))
      expect(row!.deletedAt).toBeNull()
    } finally {
      await limited.close()
    }
  })
})
