import { randomBytes } from 'node:crypto'
import { like } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { rateLimits } from '../db/schema/index'
import { authLimits } from '../features/auth/auth.routes'
import { REDIS_ANSWER_MS, REDIS_BREAKER_OPEN_MS, redisCounters } from './rate-limit-counters'
import { connectRedis } from '../lib/redis'
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy'
import { buildTestApp, createAgent, createUser, type TestApp } from '../testing/test-app'
import { expectNothingUncaught } from '../testing/uncaught'
import { waitUntil } from '../testing/wait'

/**
 * A real Redis (TEST_REDIS_URL) behind a proxy the test stops and starts, as a Redis restart or
 * a network cut would look to the app. Keys carry a prefix of this run's own.
 */
const target = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')
const keyPrefix = `podclub-test-${randomBytes(4).toString('hex')}:`
let proxy: TcpProxy
let redis: Redis
let t: TestApp
beforeAll(async () => {
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
  const url = new URL(target)
  url.hostname = '127.0.0.1'
  url.port = String(proxy.port)
  redis = connectRedis(
    url.toString(),
    { warn: vi.fn(), info: vi.fn() },
    {
      keyPrefix,
      retryStrategy: () => 50,
    },
  )
  await waitUntil(() => redis.status === 'ready', 5_000, 'redis ready')
  t = await buildTestApp({ rateLimits: true, redis })
})
afterEach(async () => {
  proxy.release()
  await proxy.resume()
  await waitUntil(() => redis.status === 'ready', 5_000, 'redis ready again')
})
afterAll(async () => {
  await t.close()
  redis.disconnect()
  await proxy.close()
  const cleaner = new Redis(target.toString())
  const keys = await cleaner.keys(`${keyPrefix}*`)
  if (keys.length > 0) await cleaner.del(...keys)
  cleaner.disconnect()
})

async function redisDown() {
  await proxy.pause()
  await waitUntil(() => redis.status !== 'ready', 5_000, 'redis gone')
}
/** Redis back, and given a moment to take over what the database counted meanwhile. */
async function redisBack() {
  await proxy.resume()
  await waitUntil(() => redis.status === 'ready', 5_000, 'redis back')
  const countedInDatabase = async () =>
    (await t.db.select().from(rateLimits).where(like(rateLimits.key, 'rl:%'))).length > 0
  await waitUntil(async () => !(await countedInDatabase()), 2_000).catch(() => {
    // Still there: the attempts that follow show whether they count.
  })
}

/** One member and one attacking address: the (account, address) budget of 10 failures. */
async function budget() {
  const member = await createUser(t)
  const attacker = createAgent(t.app, { ip: `10.80.${Math.floor(Math.random() * 250)}.1` })
  const attempt = async () =>
    (await attacker.post('/api/v1/login/', { username: member.username, password: 'wrong!' }))
      .statusCode
  return { member, attacker, attempt }
}

describe('rate limits in Redis while Redis comes and goes', () => {
  it('keep counting attempts made before an outage, during it and after it: 10, not 20', async () => {
    const { attempt } = await budget()
    const limit = authLimits.loginAccountAddress.points
    const answers: number[] = []
    for (let i = 0; i < 4; i++) answers.push(await attempt())
    await redisDown()
    for (let i = 0; i < 3; i++) answers.push(await attempt())
    await redisBack()
    for (let i = 0; i < limit - 7; i++) answers.push(await attempt())
    expect(answers).toEqual(Array(limit).fill(400))
    // The budget is spent, with Redis there and without it, however often it flaps.
    for (let flap = 0; flap < 2; flap++) {
      expect(await attempt()).toBe(429)
      await redisDown()
      expect(await attempt()).toBe(429)
      await redisBack()
    }
  })

  it('count attempts made during an outage after it, when the outage came first', async () => {
    const { attempt } = await budget()
    const limit = authLimits.loginAccountAddress.points
    await redisDown()
    const answers: number[] = []
    for (let i = 0; i < limit - 2; i++) answers.push(await attempt())
    await redisBack()
    answers.push(await attempt(), await attempt())
    expect(answers).toEqual(Array(limit).fill(400))
    expect(await attempt()).toBe(429)
  })

  it('keep the site ready, and logins working, while Redis is away', async () => {
    const { member, attacker } = await budget()
    await redisDown()
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ status: 'degraded', degraded: ['redis'] })
    expect((await attacker.login(member.username, member.password)).statusCode).toBe(200)
    await redisBack()
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      status: 'ok',
    })
  })

  it('answer every login while Redis connections are reset under them, with nothing uncaught', async () => {
    const { member } = await budget()
    const statuses = await expectNothingUncaught(async () => {
      const logins = Array.from({ length: 8 }, (_, i) =>
        createAgent(t.app, { ip: `10.81.0.${i + 1}` }).post('/api/v1/login/', {
          username: member.username,
          password: i % 2 ? member.password : 'wrong!',
        }),
      )
      proxy.cut()
      const answers = await Promise.all(logins)
      await waitUntil(() => redis.status === 'ready', 5_000, 'redis reconnected')
      return answers.map((r) => r.statusCode)
    })
    expect(statuses).toEqual([400, 200, 400, 200, 400, 200, 400, 200])
  })

  it('cost a login next to nothing while Redis hangs, and count on in the database meanwhile', async () => {
    const { member, attempt } = await budget()
    const limit = authLimits.loginAccountAddress.points
    const answers: number[] = []
    for (let i = 0; i < 3; i++) answers.push(await attempt())
    // Redis keeps its connections but answers nothing, as under SIGSTOP.
    proxy.hold()
    const times: number[] = []
    for (let i = 0; i < 4; i++) {
      const owner = createAgent(t.app, { ip: `10.82.0.${i + 1}` })
      const started = performance.now()
      expect((await owner.login(member.username, member.password)).statusCode).toBe(200)
      times.push(performance.now() - started)
    }
    for (let i = 0; i < 3; i++) answers.push(await attempt())
    // A few commands wait out their short deadline; the breaker then skips Redis. Four Redis
    // commands of a login at a second each took 4 s a login before.
    expect(Math.max(...times), `login times ${times.map(Math.round).join(', ')} ms`).toBeLessThan(
      500,
    )
    proxy.release()
    // Once Redis answers a probe again, what the table counted meanwhile moves to Redis.
    await new Promise((resolve) => setTimeout(resolve, REDIS_BREAKER_OPEN_MS + 100))
    for (let i = 0; i < limit - 6; i++) answers.push(await attempt())
    expect(answers).toEqual(Array(limit).fill(400))
    expect(await attempt()).toBe(429)
  })

  it('count in Redis when its answer came in time but this process was busy when it did', async () => {
    const counters = redisCounters(redis, t.db)
    const rule = { name: 'busy-loop', points: 5, duration: 60 }
    const key = `busy-${randomBytes(3).toString('hex')}`
    const counted = counters.add(rule, key)
    // The process is busy for 3 deadlines while Redis answers at once.
    const until = performance.now() + 3 * REDIS_ANSWER_MS
    while (performance.now() < until) {
      // Blocks the event loop as a long render would.
    }
    expect((await counted).consumed).toBe(1)
    expect(await redis.get(`rl:busy-loop:${key}`)).toBe('1')
    const inTable = await t.db
      .select()
      .from(rateLimits)
      .where(like(rateLimits.key, `%${key}`))
    expect(inTable).toEqual([])
  })

  it('ask Redis again right after one unanswered command: only a run of them opens the breaker', async () => {
    const counters = redisCounters(redis, t.db)
    const rule = { name: 'one-late', points: 5, duration: 60 }
    const key = `late-${randomBytes(3).toString('hex')}`
    await counters.add(rule, key)
    proxy.hold()
    // Unanswered: this one is counted in the table, on top of Redis's last count.
    expect((await counters.add(rule, key)).consumed).toBe(2)
    proxy.release()
    // Redis is asked again: it holds the first attempt, the held one once it arrives, and this.
    const next = await counters.add(rule, key)
    expect(await redis.get(`rl:one-late:${key}`)).toBe(String(next.consumed))
    expect(next.consumed).toBe(3)
  })
})
