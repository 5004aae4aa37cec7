import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { pgliteWrites } from '../db/pglite-writes'
import { sessions } from '../db/schema/index'
import { bootstrap } from '../features/auth/bootstrap'
import { fixedClock } from '../lib/clock'
import { buildTestApp, createAgent, createUser, type TestApp } from '../testing/test-app'
import { createSessionLookups } from './session'

const clock = fixedClock('2026-11-22T12:00:00Z')
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

const DAY = 86_400_000
const whoami = (res: { json: () => { data: { isAuthenticated: boolean } } }) =>
  res.json().data.isAuthenticated

describe('CSRF and sessions hang on the API scope, not on how the URL is spelled', () => {
  it('checks CSRF on an encoded path to the login route', async () => {
    const user = await createUser(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/%61pi/v1/login/',
      payload: { username: user.username, password: user.password },
    })
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('CSRF_FAILED')
    expect(res.cookies.find((c) => c.name === 'sessionid')).toBeUndefined()
  })

  it('refuses a cross-site text/plain form to an encoded logout path, keeping the session', async () => {
    const user = await createUser(t)
    const a = createAgent(t.app, { clock })
    await a.login(user.username, user.password)
    const session = a.jar.get('sessionid')!.value
    for (const url of ['/%61pi/v1/logout/', 'http://podclub.test/api/v1/logout/']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: `sessionid=${session}`, 'content-type': 'text/plain' },
        payload: 'x=1',
      })
      expect(res.statusCode).toBe(403)
    }
    expect(whoami(await a.get('/api/v1/whoami/'))).toBe(true)
  })

  it('accepts only JSON bodies, even with a valid token', async () => {
    const a = createAgent(t.app, { clock })
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const res = await a.post('/api/v1/login/', 'username=a&password=b', {
        headers: { 'content-type': type },
      })
      expect(res.statusCode, type).toBe(415)
    }
  })

  it('refuses a write from another origin or marked cross-site by the browser', async () => {
    const user = await createUser(t)
    const body = { username: user.username, password: user.password }
    const foreign = await createAgent(t.app).post('/api/v1/login/', body, {
      headers: { origin: 'https://evil.example' },
    })
    expect(foreign.statusCode).toBe(403)
    const crossSite = await createAgent(t.app).post('/api/v1/login/', body, {
      headers: { 'sec-fetch-site': 'cross-site' },
    })
    expect(crossSite.statusCode).toBe(403)
    const ours = await createAgent(t.app).post('/api/v1/login/', body, {
      headers: { origin: 'http://podclub.test', 'sec-fetch-site': 'same-origin' },
    })
    expect(ours.statusCode).toBe(200)
  })

  it('treats a malformed csrftoken cookie as missing instead of failing', async () => {
    for (const cookie of ['csrftoken=%E0%A4%A', 'csrftoken=a.b.c', 'csrftoken=', 'csrftoken=%00']) {
      const read = await t.app.inject({
        method: 'GET',
        url: '/api/v1/whoami/',
        headers: { cookie },
      })
      expect(read.statusCode, cookie).toBe(200)
      expect(read.cookies.find((c) => c.name === 'csrftoken')?.value).toMatch(/^[\w-]+\.[\w-]+$/)
      const write = await t.app.inject({
        method: 'POST',
        url: '/api/v1/logout/',
        headers: { cookie, 'x-csrftoken': cookie.slice('csrftoken='.length) },
      })
      expect(write.statusCode, cookie).toBe(403)
    }
  })
})

describe('CSRF tokens bound to the session', () => {
  const csrfOf = (agent: ReturnType<typeof createAgent>) => agent.jar.get('csrftoken')!.value
  /** A write with `agent`'s cookies but the CSRF token `token` in both cookie and header. */
  const logoutWith = (agent: ReturnType<typeof createAgent>, token: string) => {
    const session = agent.jar.get('sessionid')?.value
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/logout/',
      headers: {
        cookie: [`csrftoken=${token}`, ...(session ? [`sessionid=${session}`] : [])].join('; '),
        'x-csrftoken': token,
      },
    })
  }

  it("refuses another session's token, and accepts the session's own", async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)]
    const a = createAgent(t.app, { clock })
    const b = createAgent(t.app, { clock })
    await a.login(alice.username, alice.password)
    await b.login(bob.username, bob.password)
    const refused = await logoutWith(a, csrfOf(b))
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('CSRF_FAILED')
    expect(whoami(await a.get('/api/v1/whoami/'))).toBe(true)
    expect((await logoutWith(a, csrfOf(a))).statusCode).toBe(200)
    expect(whoami(await a.get('/api/v1/whoami/'))).toBe(false)
  })

  it('hands out a new token at login and at logout; the old one no longer passes', async () => {
    const user = await createUser(t)
    const a = createAgent(t.app, { clock })
    await a.get('/api/v1/whoami/')
    const asVisitor = csrfOf(a)
    const login = await a.login(user.username, user.password)
    const afterLogin = login.cookies.find((c) => c.name === 'csrftoken')?.value
    expect(afterLogin).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(afterLogin).not.toBe(asVisitor)
    // The visitor's token, with the new session: refused. Whoami keeps the good one.
    expect((await logoutWith(a, asVisitor)).statusCode).toBe(403)
    const read = await a.get('/api/v1/whoami/')
    expect(read.cookies.find((c) => c.name === 'csrftoken')).toBeUndefined()

    const logout = await a.post('/api/v1/logout/')
    expect(logout.statusCode).toBe(200)
    const afterLogout = logout.cookies.find((c) => c.name === 'csrftoken')?.value
    expect(afterLogout).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(afterLogout).not.toBe(afterLogin)
    // Bound to no session: a visitor's write passes with it, the logged-in token does not.
    expect((await logoutWith(a, afterLogout!)).statusCode).toBe(200)
    expect((await logoutWith(a, afterLogin!)).statusCode).toBe(403)
  })

  it('gives a fresh token through whoami when the cookie is bound to another session', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)]
    const a = createAgent(t.app, { clock })
    const b = createAgent(t.app, { clock })
    await a.login(alice.username, alice.password)
    await b.login(bob.username, bob.password)
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/v1/whoami/',
      headers: { cookie: `sessionid=${a.jar.get('sessionid')!.value}; csrftoken=${csrfOf(b)}` },
    })
    const fresh = read.cookies.find((c) => c.name === 'csrftoken')?.value
    expect(fresh).toMatch(/^[\w-]+\.[\w-]+$/)
    a.jar.set('csrftoken', { value: fresh! })
    expect((await a.post('/api/v1/logout/')).statusCode).toBe(200)
  })
})

describe('rolling sessions', () => {
  it('re-sends the cookie whenever the stored expiry is extended, so active members stay in', async () => {
    clock.set('2026-11-22T12:00:00Z')
    const user = await createUser(t)
    const a = createAgent(t.app, { clock })
    await a.login(user.username, user.password)
    // Visit every 10 days for 100 days: each visit is within 30 days of the last cookie.
    for (let day = 10; day <= 100; day += 10) {
      clock.advance(10 * DAY)
      const res = await a.get('/api/v1/whoami/')
      expect(whoami(res), `day ${day}`).toBe(true)
      const cookie = res.cookies.find((c) => c.name === 'sessionid')
      expect(cookie?.expires?.getTime(), `day ${day}`).toBe(clock.now().getTime() + 30 * DAY)
    }
    const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(row!.expiresAt.getTime()).toBe(clock.now().getTime() + 30 * DAY)
  })

  it('lets a session lapse after 30 days without a visit', async () => {
    clock.set('2026-11-22T12:00:00Z')
    const user = await createUser(t)
    const a = createAgent(t.app, { clock })
    await a.login(user.username, user.password)
    clock.advance(30 * DAY + 1000)
    expect(whoami(await a.get('/api/v1/whoami/'))).toBe(false)
  })
})

describe('passwords are used as typed', () => {
  it('logs in with a password that starts and ends with spaces, and not with it trimmed', async () => {
    await bootstrap(t.db, t.env)
    const password = '  spaced out  '
    const username = `spaces.${Date.now() % 1e6}`
    const signup = await createAgent(t.app).post('/api/v1/signup/', {
      username,
      email: `${username}@example.com`,
      password,
      inviteCode: 'clubcode',
      city: 'Queens',
      source: 'a friend',
    })
    expect(signup.statusCode).toBe(201)
    const login = (p: string) =>
      createAgent(t.app).post('/api/v1/login/', { username, password: p })
    expect((await login(password)).statusCode).toBe(200)
    expect((await login(password.trim())).statusCode).toBe(400)
    expect((await login('    ')).json()).toEqual({ password: ['Password is required'] })
  })
})

describe('looking a session up', () => {
  it('reads a session once, then only the versions: on PostgreSQL one tiny read, on PGlite none until something is written', async () => {
    const user = await createUser(t)
    const agent = createAgent(t.app)
    await agent.login(user.username, user.password)
    const whoami = async () => (await agent.get('/api/v1/whoami/')).json().data.user?.username
    const selects = vi.spyOn(t.db, 'select')
    try {
      expect(await whoami()).toBe(user.username)
      const afterFirst = selects.mock.calls.length
      expect(await whoami()).toBe(user.username)
      const perRead = selects.mock.calls.length - afterFirst
      expect(perRead).toBe(pgliteWrites(t.db) === undefined ? 1 : 0)

      // A change to the sessions (here: ended behind the app's back) is seen at once.
      await t.db.delete(sessions).where(eq(sessions.userId, user.id))
      expect(await whoami()).toBeUndefined()
    } finally {
      selects.mockRestore()
    }
  })

  it('does not answer a remembered session past its expiry', async () => {
    const user = await createUser(t)
    const agent = createAgent(t.app, { clock })
    await agent.login(user.username, user.password)
    const lookups = createSessionLookups(t.db, clock.now)
    const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, user.id))
    expect(await lookups.read(row!.idHash)).toMatchObject({ username: user.username })
    // Remembered by the app too, then 31 days pass with nothing written.
    expect((await agent.get('/api/v1/whoami/')).json().data.user.username).toBe(user.username)
    clock.advance(31 * 24 * 60 * 60 * 1000)
    expect((await agent.get('/api/v1/whoami/')).json().data.user).toBeNull()
  })
})
