import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users, waitlistEntries } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { bootstrap } from '../auth/bootstrap'
import { CONFIRMATION_VALID_MS } from './email-confirmation.service'

let t: TestApp
const clock = fixedClock(new Date())
beforeAll(async () => {
  t = await buildTestApp({ clock, env: { CONTACT_EMAIL: 'questions@podclub.test' } })
  // Settles the club code that sign-ups use.
  await bootstrap(t.db, t.env)
})
afterAll(() => t.close())

let ipSeq = 0
const agent = () => createAgent(t.app, { ip: `10.3.0.${++ipSeq}`, clock })

describe('waitlist', () => {
  const waitlistRows = (email: string) =>
    t.db
      .select()
      .from(waitlistEntries)
      .where(sql`lower(${waitlistEntries.email}) = ${email.toLowerCase()}`)

  it('keeps one row per address and answers a repeat the same', async () => {
    const body = { email: 'Listener@Example.com', how: 'a friend', favoritePodcast: 'Radiolab' }
    const first = await agent().post('/api/v1/waitlist/', body)
    expect(first.statusCode).toBe(200)
    expect(first.json()).toEqual({ data: { ok: true } })
    const again = await agent().post('/api/v1/waitlist/', {
      email: ' listener@example.COM ',
      how: 'other',
    })
    expect(again.statusCode).toBe(first.statusCode)
    expect(again.json()).toEqual(first.json())
    const rows = await waitlistRows('listener@example.com')
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ how: 'a friend', favoritePodcast: 'Radiolab' })
  })

  it('needs only the address', async () => {
    const res = await agent().post('/api/v1/waitlist/', { email: 'only.me@example.com' })
    expect(res.statusCode).toBe(200)
    expect(await waitlistRows('only.me@example.com')).toMatchObject([
      { how: '', favoritePodcast: '' },
    ])
  })

  it("refuses a bad address with the spec's message, and odd input without a 500", async () => {
    const bad = await agent().post('/api/v1/waitlist/', { email: 'nope' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ email: ['Please enter a valid email address'] })
    for (const body of [
      {},
      { email: ['a@b.co'] },
      { email: 'a@b.co', how: 7 },
      { email: 'a@b.co', favoritePodcast: 'x\u0000y' },
      { email: 'a@b.co', how: 'x'.repeat(201) },
    ]) {
      expect((await agent().post('/api/v1/waitlist/', body)).statusCode).toBe(400)
    }
  })
})

describe('e-mail confirmation', () => {
  const signupBody = () => {
    const n = Math.floor(Math.random() * 1e9)
    return {
      username: `conf.${n}`,
      email: `conf${n}@example.com`,
      password: 'longenough',
      inviteCode: 'clubcode',
      city: 'Queens',
      source: 'a poster',
    }
  }
  const linkIn = (text: string) => {
    const match = /http:\/\/podclub\.test\/confirm-email\/(\d+)\/([\w.-]+)/.exec(text)
    expect(match, 'a confirmation link').not.toBeNull()
    return { uid: Number(match![1]), token: match![2]! }
  }
  const confirmedAt = async (username: string) =>
    (await t.db.select().from(users).where(eq(users.username, username)))[0]!.emailConfirmedAt

  it('mails a link at sign-up that confirms the address; using it twice is harmless', async () => {
    const body = signupBody()
    const a = agent()
    expect((await a.post('/api/v1/signup/', body)).statusCode).toBe(201)
    const welcome = (await t.deliverMail()).find((m) => m.to === body.email)!
    expect(welcome.subject).toBe('Welcome to podclub')
    expect(welcome.html).toContain('confirm-email/')
    const link = linkIn(welcome.text)
    expect(await confirmedAt(body.username)).toBeNull()
    // Unconfirmed, the member uses the club all the same.
    expect((await a.get('/api/v1/whoami/')).json().data.isAuthenticated).toBe(true)

    const res = await agent().post('/api/v1/confirmEmail/', link)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ data: { confirmed: true } })
    expect(await confirmedAt(body.username)).not.toBeNull()
    expect((await agent().post('/api/v1/confirmEmail/', link)).statusCode).toBe(200)
  })

  it('refuses a forged, foreign, expired or stale link', async () => {
    const user = await createUser(t)
    await agent().post('/api/v1/confirmationEmail/', { username: user.username })
    const link = linkIn((await t.deliverMail()).find((m) => m.to === user.email)!.text)
    const other = await createUser(t)
    const refusals = [
      { ...link, token: `${link.token}x` },
      { uid: other.id, token: link.token },
      { uid: 999_999, token: link.token },
      { uid: 'abc', token: link.token },
      { uid: link.uid, token: '' },
    ]
    for (const body of refusals) {
      expect((await agent().post('/api/v1/confirmEmail/', body)).statusCode).toBe(400)
    }
    clock.advance(CONFIRMATION_VALID_MS + 1000)
    const late = await agent().post('/api/v1/confirmEmail/', link)
    expect(late.statusCode).toBe(400)
    expect(late.json()).toEqual({
      detail: 'This confirmation link is invalid or has expired.',
      code: 'BAD_REQUEST',
    })
    clock.set(new Date())
    // A changed address makes the link worthless.
    await t.db
      .update(users)
      .set({ email: `changed.${user.email}` })
      .where(eq(users.id, user.id))
    expect((await agent().post('/api/v1/confirmEmail/', link)).statusCode).toBe(400)
    expect(await confirmedAt(user.username)).toBeNull()
  })

  it('re-sends the link to an unconfirmed account and answers alike for anyone', async () => {
    const user = await createUser(t)
    await t.deliverMail()
    const known = await agent().post('/api/v1/confirmationEmail/', { username: user.username })
    const unknown = await agent().post('/api/v1/confirmationEmail/', { username: 'no.such.one' })
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(200)
    expect(unknown.json()).toEqual(known.json())
    const sent = await t.deliverMail()
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      [user.email, 'Confirm your podclub e-mail address'],
    ])

    await agent().post('/api/v1/confirmEmail/', linkIn(sent[0]!.text))
    const confirmed = await agent().post('/api/v1/confirmationEmail/', { username: user.username })
    expect(confirmed.json()).toEqual(known.json())
    expect(await t.deliverMail()).toEqual([])
    expect((await agent().post('/api/v1/confirmationEmail/', { username: '' })).statusCode).toBe(
      400,
    )
  })

  it('is rate limited per account', async () => {
    const limited = await buildTestApp({ rateLimits: true })
    try {
      const user = await createUser(limited)
      const answers: number[] = []
      for (let i = 0; i < 4; i++) {
        const a = createAgent(limited.app, { ip: `10.4.0.${i + 1}` })
        answers.push(
          (await a.post('/api/v1/confirmationEmail/', { username: user.username })).statusCode,
        )
      }
      expect(answers).toEqual([200, 200, 200, 429])
    } finally {
      await limited.close()
    }
  })
})
