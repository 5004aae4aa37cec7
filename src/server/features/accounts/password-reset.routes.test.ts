import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { okSchema } from '#contract/common'
import { passwordResetTokens, sessions, users } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { hashPassword } from '../../lib/passwords'
import { sha256 } from '../../lib/tokens'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { accountsLimits } from './accounts.routes'
import { RESET_MAIL_WINDOW_MS } from './password-reset.service'

let t: TestApp
const clock = fixedClock(new Date())
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

let ipSeq = 0
const agent = () => createAgent(t.app, { ip: `10.1.0.${++ipSeq}`, clock })

const RESET = '/api/v1/auth/passwordreset/'
const VALIDATE = '/api/v1/auth/passwordreset/validate_token/'
const CONFIRM = '/api/v1/auth/passwordreset/confirm/'

/** Asks for a reset of `email` and returns the token of the link mailed to it. */
async function requestToken(email: string): Promise<string> {
  const res = await agent().post(RESET, { email })
  expect(res.statusCode).toBe(200)
  const mail = (await t.deliverMail()).find((m) => m.to === email)
  expect(mail, 'a reset mail').toBeDefined()
  const match = /http:\/\/podclub\.test\/password-reset\/([\w.-]+)/.exec(mail!.text)
  expect(match, 'a reset link in the text part').not.toBeNull()
  expect(mail!.html).toContain(`href="${match![0]}"`)
  return match![1]!
}

describe('requesting a reset link', () => {
  it('answers a known and an unknown address alike, and mails only the known one', async () => {
    const user = await createUser(t)
    await t.deliverMail()
    const known = await agent().post(RESET, { email: user.email.toUpperCase() })
    const unknown = await agent().post(RESET, { email: 'nobody@example.com' })
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(known.statusCode)
    expect(unknown.json()).toEqual(known.json())
    expect(okSchema.parse(known.json())).toEqual({ data: { ok: true } })
    const sent = await t.deliverMail()
    expect(sent.map((m) => m.to)).toEqual([user.email])
    expect(sent[0]!.subject).toBe('Reset your podclub password')
    expect(sent[0]!.html).toBeTruthy()
  })

  it('stores only a hash of the token, valid for one hour', async () => {
    const user = await createUser(t)
    const token = await requestToken(user.email)
    const rows = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.tokenHash).toBe(sha256(token))
    expect(rows[0]!.tokenHash).not.toContain(token.split('.')[0])
    expect(rows[0]!.expiresAt.getTime() - clock.now().getTime()).toBe(60 * 60 * 1000)
  })

  it("answers the spec's messages for a missing or bad address", async () => {
    expect((await agent().post(RESET, { email: '  ' })).json()).toEqual({
      email: ['Email is required'],
    })
    expect((await agent().post(RESET, { email: 'not-an-address' })).json()).toEqual({
      email: ['Please enter a valid email address'],
    })
    const res = await agent().post(RESET, { email: 42 })
    expect(res.statusCode).toBe(400)
  })
})

describe('using a reset link', () => {
  it('validates the token, sets the new password and works only once', async () => {
    const user = await createUser(t)
    const token = await requestToken(user.email)
    expect((await agent().post(VALIDATE, { token })).json()).toEqual({ data: { ok: true } })

    const res = await agent().post(CONFIRM, { token, password: 'a brand new one' })
    expect(res.statusCode).toBe(200)
    expect(
      (
        await agent().post('/api/v1/login/', {
          username: user.username,
          password: 'a brand new one',
        })
      ).statusCode,
    ).toBe(200)
    expect(
      (await agent().post('/api/v1/login/', { username: user.username, password: user.password }))
        .statusCode,
    ).toBe(400)

    const again = await agent().post(CONFIRM, { token, password: 'yet another one' })
    expect(again.statusCode).toBe(404)
    expect(again.json()).toEqual({ detail: 'Invalid password reset token.', code: 'NOT_FOUND' })
    expect((await agent().post(VALIDATE, { token })).statusCode).toBe(404)
  })

  it('ends every session of the account', async () => {
    const user = await createUser(t)
    const phone = agent()
    const laptop = agent()
    await phone.login(user.username, user.password)
    await laptop.login(user.username, user.password)
    const token = await requestToken(user.email)

    expect((await laptop.post(CONFIRM, { token, password: 'fresh password' })).statusCode).toBe(200)
    for (const device of [phone, laptop]) {
      expect((await device.get('/api/v1/whoami/')).json().data.isAuthenticated).toBe(false)
    }
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([])
  })

  it('refuses a token after an hour', async () => {
    const user = await createUser(t)
    const token = await requestToken(user.email)
    clock.advance(59 * 60 * 1000)
    expect((await agent().post(VALIDATE, { token })).statusCode).toBe(200)
    clock.advance(60 * 1000)
    expect((await agent().post(VALIDATE, { token })).statusCode).toBe(404)
    expect((await agent().post(CONFIRM, { token, password: 'too late now' })).statusCode).toBe(404)
    expect(
      (await agent().post('/api/v1/login/', { username: user.username, password: user.password }))
        .statusCode,
    ).toBe(200)
  })

  it('kills every open link once the password changes, by a reset or otherwise', async () => {
    const user = await createUser(t)
    const first = await requestToken(user.email)
    // One mail per window: the second link comes in the next one, the first still open.
    clock.advance(RESET_MAIL_WINDOW_MS)
    const second = await requestToken(user.email)
    expect(
      (await agent().post(CONFIRM, { token: second, password: 'changed once' })).statusCode,
    ).toBe(200)
    expect((await agent().post(VALIDATE, { token: first })).statusCode).toBe(404)

    clock.advance(RESET_MAIL_WINDOW_MS)
    const third = await requestToken(user.email)
    // The admin command (or any other path) changing the password also ends the link.
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword('set by the admin') })
      .where(eq(users.id, user.id))
    expect((await agent().post(VALIDATE, { token: third })).statusCode).toBe(404)
    expect(
      (await agent().post(CONFIRM, { token: third, password: 'sneaky change' })).statusCode,
    ).toBe(404)
  })

  it('lets only one of two concurrent confirmations through', async () => {
    const user = await createUser(t)
    const token = await requestToken(user.email)
    const results = await Promise.all(
      ['racer number one', 'racer number two'].map((password) =>
        agent().post(CONFIRM, { token, password }),
      ),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404])
  })

  it('refuses made-up and malformed tokens without a 500', async () => {
    for (const token of ['nope', 'a.b', 'x'.repeat(200), 'é.ü', '\u0000']) {
      const res = await agent().post(VALIDATE, { token })
      expect([400, 404]).toContain(res.statusCode)
    }
    expect((await agent().post(VALIDATE, { token: 'x'.repeat(201) })).statusCode).toBe(400)
    expect((await agent().post(VALIDATE, {})).statusCode).toBe(400)
  })

  it("answers the spec's password messages", async () => {
    expect((await agent().post(CONFIRM, { token: 'abc', password: '' })).json()).toEqual({
      password: ['Password is required', 'Password must have at least 8 characters'],
    })
    expect((await agent().post(CONFIRM, { token: 'abc', password: 'short' })).json()).toEqual({
      password: ['Password must have at least 8 characters'],
    })
  })
})

describe('reset rate limits', () => {
  it("mails one link per window however many ask, and never refuses the owner's own request", async () => {
    const limitedClock = fixedClock(new Date())
    const limited = await buildTestApp({ rateLimits: true, clock: limitedClock })
    try {
      const user = await createUser(limited)
      await limited.deliverMail()
      // Strangers ask for the member's reset from three addresses, then the owner from home.
      const answers: number[] = []
      for (let i = 0; i < 4; i++) {
        const a = createAgent(limited.app, { ip: `10.2.0.${i + 1}`, clock: limitedClock })
        answers.push((await a.post(RESET, { email: user.email })).statusCode)
      }
      expect(answers).toEqual([200, 200, 200, 200])
      const mailed = await limited.deliverMail()
      expect(mailed.map((m) => m.to)).toEqual([user.email])
      // The one link mailed works; no other was kept.
      const open = await limited.db
        .select()
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.userId, user.id))
      expect(open).toHaveLength(1)
      // The next window mails again, to whoever asks first.
      limitedClock.advance(RESET_MAIL_WINDOW_MS)
      const owner = createAgent(limited.app, { ip: '10.2.0.9', clock: limitedClock })
      expect((await owner.post(RESET, { email: user.email })).statusCode).toBe(200)
      expect((await limited.deliverMail()).map((m) => m.to)).toEqual([user.email])
    } finally {
      await limited.close()
    }
  })

  it('limits how many requests one address makes', async () => {
    const limited = await buildTestApp({ rateLimits: true })
    try {
      const a = createAgent(limited.app, { ip: '10.3.0.1' })
      const answers: number[] = []
      for (let i = 0; i <= accountsLimits.resetRequestAddress.points; i++) {
        answers.push((await a.post(RESET, { email: `someone${i}@example.com` })).statusCode)
      }
      expect(answers.at(-1)).toBe(429)
      expect(answers.slice(0, -1).every((status) => status === 200)).toBe(true)
    } finally {
      await limited.close()
    }
  })
})
