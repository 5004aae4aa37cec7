import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  INVALID_INVITE_CODE_MESSAGE,
  SIGNUP_EMAIL_REFUSED_MESSAGE,
  whoamiResponseSchema,
} from '#contract/auth'
import { inviteCodes, sessions, users } from '../../db/schema/index'
import { bootstrap, resolveSessionSecret } from './bootstrap'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
  await bootstrap(t.db, t.env)
})
afterAll(() => t.close())

let ipSeq = 0
/** Each test gets its own client address, so rate limits of one test don't touch another. */
const agent = () => createAgent(t.app, { ip: `10.0.0.${++ipSeq}` })

const sessionCount = async () => (await t.db.select({ n: count() }).from(sessions))[0]!.n

describe('whoami', () => {
  it('answers anonymous and sets a readable csrftoken cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/whoami/' })
    expect(res.statusCode).toBe(200)
    expect(whoamiResponseSchema.parse(res.json())).toEqual({
      data: { isAuthenticated: false, user: null },
    })
    const csrf = res.cookies.find((c) => c.name === 'csrftoken')
    expect(csrf?.value).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(csrf?.httpOnly).toBeFalsy()
    expect(csrf?.sameSite).toBe('Lax')
  })
})

describe('CSRF', () => {
  it('refuses a POST without the X-CSRFToken header and changes nothing', async () => {
    const user = await createUser(t)
    const a = agent()
    await a.get('/api/v1/whoami/')
    const before = await sessionCount()
    const res = await a.post(
      '/api/v1/login/',
      { username: user.username, password: user.password },
      { csrf: false },
    )
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({
      detail: 'CSRF Failed: CSRF token missing or incorrect.',
      code: 'CSRF_FAILED',
    })
    expect(await sessionCount()).toBe(before)
    expect(res.cookies.find((c) => c.name === 'sessionid')).toBeUndefined()
  })

  it('refuses a header that does not match the cookie, and a forged pair', async () => {
    const user = await createUser(t)
    const a = agent()
    await a.get('/api/v1/whoami/')
    const mismatch = await a.post(
      '/api/v1/login/',
      { username: user.username, password: user.password },
      { csrf: false, headers: { 'x-csrftoken': 'abc.def' } },
    )
    expect(mismatch.statusCode).toBe(403)
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login/',
      headers: { cookie: 'csrftoken=abc.def', 'x-csrftoken': 'abc.def' },
      payload: { username: user.username, password: user.password },
    })
    expect(forged.statusCode).toBe(403)
  })

  it('refuses a signup without the header and creates no account', async () => {
    const a = agent()
    await a.get('/api/v1/whoami/')
    const res = await a.post(
      '/api/v1/signup/',
      {
        username: 'nocsrf',
        email: 'nocsrf@example.com',
        password: 'longenough',
        inviteCode: 'clubcode',
        city: 'Brooklyn',
        source: 'a friend',
      },
      { csrf: false },
    )
    expect(res.statusCode).toBe(403)
    expect(await t.db.select().from(users).where(eq(users.username, 'nocsrf'))).toHaveLength(0)
  })
})

describe('login and logout', () => {
  it('logs in, answers whoami with the user, and logs out', async () => {
    const user = await createUser(t, { isSuperuser: true })
    const a = agent()
    const res = await a.login(user.username, user.password)
    expect(whoamiResponseSchema.parse(res.json()).data).toEqual({
      isAuthenticated: true,
      user: { username: user.username, email: user.email, is_superuser: true },
    })
    const cookie = res.cookies.find((c) => c.name === 'sessionid')!
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe('Lax')
    expect(cookie.secure).toBeFalsy()

    const me = await a.get('/api/v1/whoami/')
    expect(me.json().data.user.username).toBe(user.username)

    const out = await a.post('/api/v1/logout/')
    expect(out.statusCode).toBe(200)
    expect(out.json()).toEqual({ data: { ok: true } })
    expect((await a.get('/api/v1/whoami/')).json().data).toEqual({
      isAuthenticated: false,
      user: null,
    })
    // The old cookie is dead on the server too, not only removed from the browser.
    const replay = await t.app.inject({
      method: 'GET',
      url: '/api/v1/whoami/',
      headers: { cookie: `sessionid=${cookie.value}` },
    })
    expect(replay.json().data.isAuthenticated).toBe(false)
  })

  it('gives a new session id at login and drops the previous one', async () => {
    const user = await createUser(t)
    const a = agent()
    await a.login(user.username, user.password)
    const first = a.jar.get('sessionid')?.value
    await a.login(user.username, user.password)
    const second = a.jar.get('sessionid')?.value
    expect(first).toBeTruthy()
    expect(second).toBeTruthy()
    expect(second).not.toBe(first)
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/v1/whoami/',
      headers: { cookie: `sessionid=${first}` },
    })
    expect(old.json().data.isAuthenticated).toBe(false)
  })

  it('stores only a hash of the session id', async () => {
    const user = await createUser(t)
    const a = agent()
    await a.login(user.username, user.password)
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.idHash).not.toBe(a.jar.get('sessionid')?.value)
  })

  it('accepts the e-mail address in place of the username', async () => {
    const user = await createUser(t)
    const res = await agent().post('/api/v1/login/', {
      username: user.email.toUpperCase(),
      password: user.password,
    })
    expect(res.statusCode).toBe(200)
  })

  it('answers the same for a wrong password and an unknown user', async () => {
    const user = await createUser(t)
    const wrong = await agent().post('/api/v1/login/', {
      username: user.username,
      password: 'nope-nope',
    })
    const unknown = await agent().post('/api/v1/login/', {
      username: 'nobody.here',
      password: 'nope-nope',
    })
    expect(wrong.statusCode).toBe(400)
    expect(unknown.statusCode).toBe(400)
    expect(wrong.json()).toEqual({
      detail: 'Invalid username or password.',
      code: 'INVALID_CREDENTIALS',
    })
    expect(unknown.json()).toEqual(wrong.json())
  })

  it("answers the spec's messages for missing fields", async () => {
    const res = await agent().post('/api/v1/login/', { username: '   ', password: '' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      username: ['Username is required'],
      password: ['Password is required'],
    })
  })

  it('answers 429 with Retry-After after too many attempts', async () => {
    const limited$ = await buildTestApp({ rateLimits: true })
    const user = await createUser(limited$)
    const a = createAgent(limited$.app, { ip: '10.9.0.1' })
    for (let i = 0; i < 10; i++) {
      const res = await a.post('/api/v1/login/', {
        username: user.username,
        password: 'wrong-password',
      })
      expect(res.statusCode).toBe(400)
    }
    const limited = await a.post('/api/v1/login/', {
      username: user.username,
      password: user.password,
    })
    expect(limited.statusCode).toBe(429)
    expect(limited.json().code).toBe('RATE_LIMITED')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    // Another client address is not affected.
    // A different account from the same address still has its own budget.
    const other = await createUser(limited$)
    expect(
      (await a.post('/api/v1/login/', { username: other.username, password: other.password }))
        .statusCode,
    ).toBe(200)
    await limited$.close()
  })

  it('marks the session cookie Secure when APP_URL is https', async () => {
    const secure = await buildTestApp({ env: { APP_URL: 'https://podclub.example' } })
    try {
      const user = await createUser(secure)
      const res = await createAgent(secure.app).login(user.username, user.password)
      const cookie = res.cookies.find((c) => c.name === '__Host-sessionid')
      expect(cookie?.secure).toBe(true)
      expect(cookie?.path).toBe('/')
      expect(res.cookies.find((c) => c.name === 'sessionid')).toBeUndefined()
    } finally {
      await secure.close()
    }
  })
})

const signupBody = (over: Record<string, string> = {}) => ({
  username: `new.${Math.floor(Math.random() * 1e9)}`,
  email: `new${Math.floor(Math.random() * 1e9)}@example.com`,
  password: 'longenough',
  inviteCode: 'clubcode',
  city: 'Brooklyn',
  source: 'a friend',
  ...over,
})

describe('signup', () => {
  it('creates a member with the club code, logs them in and mails a welcome', async () => {
    const a = agent()
    const body = signupBody()
    const res = await a.post('/api/v1/signup/', body)
    expect(res.statusCode).toBe(201)
    expect(res.json().data.user).toEqual({
      username: body.username,
      email: body.email,
      is_superuser: false,
    })
    expect((await a.get('/api/v1/whoami/')).json().data.user.username).toBe(body.username)
    const sent = await t.deliverMail()
    expect(sent.map((m) => [m.to, m.subject])).toContainEqual([body.email, 'Welcome to podclub'])
  })

  it('uses a welcome code once', async () => {
    await t.db.insert(inviteCodes).values({ code: 'welcome-once' })
    const first = await agent().post('/api/v1/signup/', signupBody({ inviteCode: 'welcome-once' }))
    expect(first.statusCode).toBe(201)
    const check = await agent().post('/api/v1/validate_invite_code/', { code: 'welcome-once' })
    expect(check.statusCode).toBe(409)
    const second = await agent().post('/api/v1/signup/', signupBody({ inviteCode: 'welcome-once' }))
    expect(second.statusCode).toBe(409)
    expect(second.json()).toEqual({
      detail: 'This invite code has already been used',
      code: 'INVITE_CODE_USED',
    })
  })

  it('lets only one of two concurrent sign-ups use a welcome code', async () => {
    await t.db.insert(inviteCodes).values({ code: 'welcome-race' })
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        agent().post('/api/v1/signup/', signupBody({ inviteCode: 'welcome-race' })),
      ),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409])
  })

  it('refuses an unknown code, and validate_invite_code says the same', async () => {
    const res = await agent().post('/api/v1/signup/', signupBody({ inviteCode: 'no-such-code' }))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ detail: INVALID_INVITE_CODE_MESSAGE, code: 'INVALID_INVITE_CODE' })
    const check = await agent().post('/api/v1/validate_invite_code/', { code: 'no-such-code' })
    expect(check.statusCode).toBe(400)
    expect(check.json()).toEqual(res.json())
    const ok = await agent().post('/api/v1/validate_invite_code/', { code: 'clubcode' })
    expect(ok.json()).toEqual({ data: { valid: true } })
    const empty = await agent().post('/api/v1/validate_invite_code/', { code: ' ' })
    expect(empty.json()).toEqual({ code: ['Invite code is required'] })
  })

  it("answers every field rule with the spec's message", async () => {
    const res = await agent().post('/api/v1/signup/', {
      username: 'AB',
      email: 'not-an-email',
      password: 'short',
      inviteCode: 'clubcode',
      city: 'X',
      source: '',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({
      username: [
        'Username must be at least 3 characters',
        'Username can only contain lowercase letters, numbers, and periods',
      ],
      email: ['Please enter a valid email address'],
      password: ['Password must be at least 8 characters'],
      city: ['Please enter a valid city'],
      source: ['Please tell us how you found us'],
    })
    const long = await agent().post(
      '/api/v1/signup/',
      signupBody({ username: 'a'.repeat(25), source: 's'.repeat(101) }),
    )
    expect(long.json()).toEqual({
      username: ['Username must be 24 characters or less'],
      source: ['Response must be 100 characters or less'],
    })
  })

  it('refuses a taken username on its field, also when two race', async () => {
    const existing = await createUser(t)
    const res = await agent().post('/api/v1/signup/', signupBody({ username: existing.username }))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ username: ['A user with that username already exists.'] })
    const body = signupBody()
    const race = await Promise.all([1, 2].map(() => agent().post('/api/v1/signup/', body)))
    expect(race.map((r) => r.statusCode).sort()).toEqual([201, 400])
  })

  it("does not confirm a member's e-mail address: a refusal naming no one, and a mail to its owner", async () => {
    const owner = await createUser(t)
    await t.deliverMail()
    await t.db.insert(inviteCodes).values({ code: 'welcome-kept' })
    const res = await agent().post(
      '/api/v1/signup/',
      signupBody({ email: ` ${owner.email.toUpperCase()} `, inviteCode: 'welcome-kept' }),
    )
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ email: [SIGNUP_EMAIL_REFUSED_MESSAGE] })
    expect(res.body).not.toContain(owner.username)
    expect(res.cookies.find((c) => c.name === 'sessionid')).toBeUndefined()

    // Nothing was made or spent; the owner hears of it, and no one else does.
    const [code] = await t.db.select().from(inviteCodes).where(eq(inviteCodes.code, 'welcome-kept'))
    expect(code!.usedAt).toBeNull()
    const sent = await t.deliverMail()
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      [owner.email, 'Someone tried to sign up to podclub with your e-mail address'],
    ])
    expect(sent[0]!.text).toContain(`Hi ${owner.username},`)
    expect(sent[0]!.text).toContain('http://podclub.test/forgot-password')

    // Tried again within the hour: the same answer, and no second e-mail.
    const again = await agent().post('/api/v1/signup/', signupBody({ email: owner.email }))
    expect(again.json()).toEqual({ email: [SIGNUP_EMAIL_REFUSED_MESSAGE] })
    expect(await t.deliverMail()).toEqual([])

    // Both taken: the username is said, the address is not.
    const both = await agent().post(
      '/api/v1/signup/',
      signupBody({ username: owner.username, email: owner.email }),
    )
    expect(both.json()).toEqual({
      username: ['A user with that username already exists.'],
      email: [SIGNUP_EMAIL_REFUSED_MESSAGE],
    })
  })
})

describe('errors and operations', () => {
  it('answers unknown API paths with 404 JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here/' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ detail: 'Resource not found', code: 'NOT_FOUND' })
  })

  it('answers malformed JSON with 400 and no internals', async () => {
    const a = agent()
    await a.get('/api/v1/whoami/')
    const res = await a.request('/api/v1/login/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"username": ',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ detail: 'Malformed JSON in request body.', code: 'BAD_REQUEST' })
  })

  it('answers a missing body as invalid input, not a crash', async () => {
    const res = await agent().post('/api/v1/signup/')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ non_field_errors: ['Invalid request body.'] })
  })

  it('serves liveness, readiness and the OpenAPI document', async () => {
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' })
    expect((await t.app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ok' })
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/login/', '/api/v1/whoami/', '/api/v1/signup/']),
    )
    expect(doc.paths['/api/v1/login/'].post.requestBody).toBeDefined()
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBeLessThan(400)
  })
})

describe('bootstrap', () => {
  it('creates the super user only on an empty database and keeps the club code', async () => {
    const fresh = await buildTestApp()
    try {
      const first = await bootstrap(fresh.db, fresh.env)
      expect(first.createdAdmin?.username).toBe('admin')
      expect(first.createdAdmin?.generatedPassword).toMatch(/^[\w-]{16}$/)
      expect(first.inviteLink).toBe('http://podclub.test/register/clubcode')
      const second = await bootstrap(fresh.db, fresh.env)
      expect(second.createdAdmin).toBeUndefined()
      // The printed credentials work, and the account is a super user.
      const res = await createAgent(fresh.app).login(
        'admin',
        first.createdAdmin!.generatedPassword!,
      )
      expect(res.json().data.user.is_superuser).toBe(true)
      // The printed invite link's code signs people up.
      const signup = await createAgent(fresh.app).post('/api/v1/signup/', signupBody())
      expect(signup.statusCode).toBe(201)
    } finally {
      await fresh.close()
    }
  })
})

describe('the club code', () => {
  it('is random, kept and printed when CLUB_INVITE_CODE is unset', async () => {
    const fresh = await buildTestApp({ env: { CLUB_INVITE_CODE: '' } })
    try {
      const first = await bootstrap(fresh.db, fresh.env)
      expect(first.clubInviteCode).toMatch(/^club-[\w-]{12}$/)
      expect(first.inviteLink).toBe(`http://podclub.test/register/${first.clubInviteCode}`)
      expect((await bootstrap(fresh.db, fresh.env)).clubInviteCode).toBe(first.clubInviteCode)
      const other = await buildTestApp({ env: { CLUB_INVITE_CODE: '' } })
      const elsewhere = await bootstrap(other.db, other.env)
      await other.close()
      expect(elsewhere.clubInviteCode).not.toBe(first.clubInviteCode)
      const valid = await createAgent(fresh.app).post('/api/v1/validate_invite_code/', {
        code: first.clubInviteCode,
      })
      expect(valid.statusCode).toBe(200)
      const guessed = await createAgent(fresh.app).post('/api/v1/validate_invite_code/', {
        code: 'podclub',
      })
      expect(guessed.statusCode).toBe(400)
    } finally {
      await fresh.close()
    }
  })

  it('stops working when CLUB_INVITE_CODE changes, and works again when set back', async () => {
    const fresh = await buildTestApp({ env: { CLUB_INVITE_CODE: 'oldcode' } })
    try {
      await bootstrap(fresh.db, fresh.env)
      const check = async (code: string) =>
        (await createAgent(fresh.app).post('/api/v1/validate_invite_code/', { code })).statusCode
      expect(await check('oldcode')).toBe(200)
      await bootstrap(fresh.db, { ...fresh.env, CLUB_INVITE_CODE: 'newcode' })
      expect([await check('oldcode'), await check('newcode')]).toEqual([400, 200])
      const signup = await createAgent(fresh.app).post(
        '/api/v1/signup/',
        signupBody({ inviteCode: 'oldcode' }),
      )
      expect(signup.statusCode).toBe(400)
      expect(signup.json().detail).toBe(INVALID_INVITE_CODE_MESSAGE)
      await bootstrap(fresh.db, { ...fresh.env, CLUB_INVITE_CODE: 'oldcode' })
      expect([await check('oldcode'), await check('newcode')]).toEqual([200, 400])
    } finally {
      await fresh.close()
    }
  })
})

describe('session secret', () => {
  it('is made once and shared when SESSION_SECRET is unset', async () => {
    const first = await resolveSessionSecret(t.db, undefined)
    expect(first.length).toBeGreaterThanOrEqual(32)
    expect(await resolveSessionSecret(t.db, undefined)).toBe(first)
    expect(await resolveSessionSecret(t.db, 'x'.repeat(40))).toBe('x'.repeat(40))
  })
})
