import type { LightMyRequestResponse } from 'fastify'
import { buildApp } from '../app'
import { queuedJobs } from '../background'
import type { Database } from '../db/client'
import { guardPlainDb } from '../db/transaction'
import type { AppDeps } from '../deps'
import { users } from '../db/schema/index'
import { createOutboxWorker } from '../features/mail/outbox.worker'
import { createJobRunner } from '../jobs/job-runner'
import type { MailTransport, OutboundMessage } from '../features/mail/mail.transport'
import { type Clock, systemClock } from '../lib/clock'
import { type Env, parseEnv } from '../lib/env'
import { type HashCost, hashPassword } from '../lib/passwords'
import { createTestDatabase } from './test-db'

export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  APP_URL: 'http://podclub.test',
  SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
  CLUB_INVITE_CODE: 'clubcode',
  MAIL_FROM: 'podclub <hello@podclub.test>',
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>

/**
 * The real app on a fresh migrated database, with the real outbox delivering to a capturing
 * transport. `deliverMail()` runs the outbox once and returns what it sent; `runJobs()` runs the
 * queued jobs (a monthly blast) as the job runner of a server would. Rate limits are off
 * unless `rateLimits: true`; `db` throws when used inside an open `transaction()`.
 */
export async function buildTestApp(
  opts: {
    clock?: Clock
    env?: Record<string, string>
    database?: Database
    rateLimits?: boolean
    redis?: AppDeps['redis']
  } = {},
) {
  const env: Env = parseEnv({ ...TEST_ENV, ...opts.env })
  const database = opts.database ?? (await createTestDatabase())
  const clock = opts.clock ?? systemClock
  const sent: OutboundMessage[] = []
  const transport: MailTransport = {
    send: async (message) => {
      sent.push(message)
    },
    close: () => {},
  }
  const silentLog = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
  const outbox = createOutboxWorker({
    db: database.db,
    transport,
    clock,
    from: env.MAIL_FROM,
    log: silentLog,
  })
  const db = guardPlainDb(database.db)
  let outboxWakes = 0
  let jobWakes = 0
  const deps: AppDeps = {
    env,
    db,
    listen: database.listen,
    clock,
    wakeOutbox: () => {
      outboxWakes += 1
    },
    wakeJobs: () => {
      jobWakes += 1
    },
    sessionSecret: env.SESSION_SECRET!,
    clubInviteCode: env.CLUB_INVITE_CODE ?? 'clubcode',
    rateLimits: opts.rateLimits ?? false,
    redis: opts.redis,
    poolStats: database.poolStats,
  }
  const jobRunner = createJobRunner({ deps, jobs: queuedJobs, log: silentLog })
  const app = await buildApp(deps)
  await app.ready()
  return {
    app,
    deps,
    db,
    /** How often a committed transaction woke the outbox. */
    outboxWakes: () => outboxWakes,
    /** How often a committed transaction woke the job runner. */
    jobWakes: () => jobWakes,
    env,
    clock,
    sent,
    async deliverMail() {
      const before = sent.length
      await outbox.runOnce()
      return sent.slice(before)
    },
    /** Runs the outbox until it has nothing left to send (a run sends one batch). */
    async deliverAllMail() {
      const before = sent.length
      for (let count = -1; count !== sent.length;) {
        count = sent.length
        await outbox.runOnce()
      }
      return sent.slice(before)
    },
    /** Runs queued jobs, one after the other, until none is due; returns how many ran. */
    async runJobs() {
      let ran = 0
      while (await jobRunner.runOnce()) ran += 1
      return ran
    },
    async close() {
      await jobRunner.stop()
      await app.close()
      if (!opts.database) await database.close()
    },
  }
}

/**
 * argon2id is slow on purpose, at every login too: members made for tests share a hash per
 * password, of argon2id at a low cost. Verifying reads the cost from the hash, so their logins
 * run the same code as anyone's, in about a millisecond instead of 40 (the suites log in some
 * 1,600 times). The hashes the app makes itself (sign-up, a reset, the first super user) keep
 * the real cost, which passwords.test.ts checks.
 */
const TEST_HASH_COST: HashCost = { memoryCost: 256, timeCost: 1 }
const hashes = new Map<string, Promise<string>>()
const testHash = (password: string) => {
  let hash = hashes.get(password)
  if (!hash) {
    hash = hashPassword(password, TEST_HASH_COST)
    hashes.set(password, hash)
  }
  return hash
}

const CSRF = 'x-csrftoken'
/** A write refused for its CSRF token alone, which the page answers by asking whoami for one. */
const isStaleCsrfToken = (res: LightMyRequestResponse) =>
  res.statusCode === 403 && /CSRF token missing or incorrect/.test(res.body)

let userSeq = 0
/** Inserts a member directly (sign-up has its own tests); returns its credentials. */
export async function createUser(
  testApp: { db: TestApp['db'] },
  overrides: Partial<{
    username: string
    email: string
    password: string
    isSuperuser: boolean
    city: string
  }> = {},
) {
  userSeq += 1
  const username = overrides.username ?? `member${userSeq}.${Math.floor(Math.random() * 1e6)}`
  const password = overrides.password ?? 'correct horse battery'
  const email = overrides.email ?? `${username}@example.com`
  const [user] = await testApp.db
    .insert(users)
    .values({
      username,
      email,
      passwordHash: await testHash(password),
      isSuperuser: overrides.isSuperuser ?? false,
      city: overrides.city ?? '',
    })
    .returning()
  return { ...user!, password }
}

type InjectOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  headers?: Record<string, string>
}

/**
 * A browser-like client: keeps cookies between calls and sends the CSRF header the page would
 * send (`csrf: false` leaves it out). Like the page, when a write is refused for its token alone
 * (one bound to a session that has since ended), it gets a fresh one through whoami and tries
 * once more.
 */
export function createAgent(app: TestApp['app'], opts: { ip?: string; clock?: Clock } = {}) {
  const clock = opts.clock ?? systemClock
  const jar = new Map<string, { value: string; expires?: Date }>()
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies) {
      if (c.value === '' || (c.expires && c.expires.getTime() < clock.now().getTime()))
        jar.delete(c.name)
      else jar.set(c.name, { value: c.value, expires: c.expires })
    }
  }
  /** The cookies a browser would still send now, by the app's clock. */
  const live = () =>
    [...jar].filter(([, c]) => !c.expires || c.expires.getTime() > clock.now().getTime())
  const request = async (
    path: string,
    options: InjectOptions & { csrf?: boolean } = {},
    isRetry = false,
  ): Promise<LightMyRequestResponse> => {
    const method = options.method ?? 'GET'
    if (method !== 'GET' && !jar.has('csrftoken') && options.csrf !== false) {
      remember(await app.inject({ method: 'GET', url: '/api/v1/whoami/', remoteAddress: opts.ip }))
    }
    const headers: Record<string, string> = { ...options.headers }
    const cookies = live()
    if (cookies.length > 0) headers.cookie = cookies.map(([k, c]) => `${k}=${c.value}`).join('; ')
    if (method !== 'GET' && options.csrf !== false && jar.has('csrftoken')) {
      headers['x-csrftoken'] = jar.get('csrftoken')!.value
    }
    const res = await app.inject({
      method,
      url: path,
      headers,
      remoteAddress: opts.ip,
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    })
    remember(res)
    const sentOwnToken = method !== 'GET' && options.csrf !== false && !options.headers?.[CSRF]
    if (sentOwnToken && !isRetry && isStaleCsrfToken(res)) {
      remember(await app.inject({ method: 'GET', url: '/api/v1/whoami/', remoteAddress: opts.ip }))
      return request(path, options, true)
    }
    return res
  }
  return {
    jar,
    get: (path: string, o: Omit<InjectOptions, 'method' | 'body'> = {}) =>
      request(path, { ...o, method: 'GET' }),
    post: (
      path: string,
      body?: unknown,
      o: { csrf?: boolean; headers?: Record<string, string> } = {},
    ) => request(path, { ...o, method: 'POST', body }),
    request,
    async login(username: string, password: string) {
      const res = await request('/api/v1/login/', { method: 'POST', body: { username, password } })
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`)
      return res
    },
  }
}

/**
 * A new member, logged in through the API: their row and a browser-like client. `on` puts the
 * client on another app instance of the same database (as another process would serve it).
 */
export async function loggedInMember(
  t: TestApp,
  opts: { clock?: Clock; on?: TestApp; ip?: string } = {},
) {
  const user = await createUser(t)
  const agent = createAgent((opts.on ?? t).app, { clock: opts.clock, ip: opts.ip })
  await agent.login(user.username, user.password)
  return { user, agent }
}
