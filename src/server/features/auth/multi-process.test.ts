import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inviteCodes } from '../../db/schema/index'
import { openTwoApps } from '../../testing/two-apps'
import { createAgent, createUser, type TestApp } from '../../testing/test-app'
import { bootstrap } from './bootstrap'

/**
 * Two app instances on one database, each with its own connection pool on PostgreSQL: what must
 * hold across app processes (sessions, CSRF, rate limits, single-use codes) holds here.
 */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps({ rateLimits: true }))
  await bootstrap(a.db, a.env)
})
afterAll(() => close())

/** A client whose cookies travel between the two instances, like a browser behind a balancer. */
function balancedAgent(ip: string) {
  const onA = createAgent(a.app, { ip })
  const onB = createAgent(b.app, { ip })
  const sync = (from: typeof onA, to: typeof onA) => {
    to.jar.clear()
    for (const [k, v] of from.jar) to.jar.set(k, v)
  }
  return { onA, onB, sync }
}

describe('several app processes on one database', () => {
  it('honours a session and CSRF token made by the other process', async () => {
    const user = await createUser(a)
    const { onA, onB, sync } = balancedAgent('10.1.0.1')
    await onA.login(user.username, user.password)
    sync(onA, onB)
    const me = await onB.get('/api/v1/whoami/')
    expect(me.json().data.user.username).toBe(user.username)
    const out = await onB.post('/api/v1/logout/')
    expect(out.statusCode).toBe(200)
    sync(onB, onA)
    expect((await onA.get('/api/v1/whoami/')).json().data.isAuthenticated).toBe(false)
  })

  it('lets a welcome code be used once when both processes race for it', async () => {
    await a.db.insert(inviteCodes).values({ code: 'two-process-race' })
    const body = (n: number) => ({
      username: `race.${n}.${Date.now() % 100000}`,
      email: `race${n}.${Date.now()}@example.com`,
      password: 'longenough',
      inviteCode: 'two-process-race',
      city: 'Queens',
      source: 'a friend',
    })
    const results = await Promise.all([
      createAgent(a.app, { ip: '10.1.0.2' }).post('/api/v1/signup/', body(1)),
      createAgent(b.app, { ip: '10.1.0.3' }).post('/api/v1/signup/', body(2)),
      createAgent(a.app, { ip: '10.1.0.4' }).post('/api/v1/signup/', body(3)),
      createAgent(b.app, { ip: '10.1.0.5' }).post('/api/v1/signup/', body(4)),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409])
  })

  it('counts login attempts across processes', async () => {
    const user = await createUser(a)
    const ip = '10.1.0.9'
    const attempt = (app: TestApp) =>
      createAgent(app.app, { ip }).post('/api/v1/login/', {
        username: user.username,
        password: 'wrong-password',
      })
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await attempt(i % 2 ? a : b)).statusCode)
    expect(statuses.every((s) => s === 400)).toBe(true)
    expect((await attempt(a)).statusCode).toBe(429)
    expect((await attempt(b)).statusCode).toBe(429)
  })
})
