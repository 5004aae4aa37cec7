import { and, gt, like } from 'drizzle-orm'
import type { Redis } from 'ioredis'
import {
  type RateLimiterAbstract,
  RateLimiterDrizzle,
  RateLimiterRedis,
  type RateLimiterRes,
} from 'rate-limiter-flexible'
import type { Db } from '../db/client'
import { rateLimits } from '../db/schema/index'

/** Attempts allowed per key within `duration` seconds. Features declare their own rules. */
export type RateLimitRule = {
  readonly name: string
  readonly points: number
  readonly duration: number
}

/** Where a key stands after one more attempt: how many it has made, and when its window ends. */
export type Count = { consumed: number; msBeforeNext: number }

/** The counters behind `app.rateLimit`: count one attempt, read a count, or forget a key. */
export type RateLimitCounters = {
  add(rule: RateLimitRule, key: string): Promise<Count>
  /** Attempts counted for the key in its current window, without counting one; 0 when none. */
  peek(rule: RateLimitRule, key: string): Promise<number>
  reset(rule: RateLimitRule, key: string): Promise<void>
}

/** Every counter's key starts so, in Redis and in the table alike (`rl:<rule>:<key>`). */
const KEY_PREFIX = 'rl'
const prefixOf = (rule: RateLimitRule) => `${KEY_PREFIX}:${rule.name}`

function limiterCache<T extends RateLimiterAbstract>(make: (rule: RateLimitRule) => T) {
  const limiters = new Map<string, T>()
  return (rule: RateLimitRule): T => {
    let limiter = limiters.get(rule.name)
    if (!limiter) {
      limiter = make(rule)
      limiters.set(rule.name, limiter)
    }
    return limiter
  }
}

const toCount = (res: RateLimiterRes): Count => ({
  consumed: res.consumedPoints,
  msBeforeNext: Math.max(0, res.msBeforeNext),
})

/** Counters in the `rate_limits` table, shared by every process on the database. */
export function databaseCounters(db: Db): RateLimitCounters {
  const limiterFor = limiterCache(
    (rule) =>
      new RateLimiterDrizzle({
        points: rule.points,
        duration: rule.duration,
        keyPrefix: prefixOf(rule),
        storeClient: db,
        schema: rateLimits,
        // The prune job deletes expired rows; a timer per limiter would only duplicate it.
        clearExpiredByTimeout: false,
      }),
  )
  return {
    add: async (rule, key) => toCount(await limiterFor(rule).penalty(key)),
    peek: async (rule, key) => (await limiterFor(rule).get(key))?.consumedPoints ?? 0,
    reset: async (rule, key) => {
      await limiterFor(rule).delete(key)
    },
  }
}

/**
 * How long the counters wait for Redis's answer before counting in the database instead. A local
 * Redis answers in well under a millisecond; a hung one never does.
 */
export const REDIS_ANSWER_MS = 50

/**
 * How many commands in a row must fail (refused, reset, or unanswered within `REDIS_ANSWER_MS`)
 * before the counters skip Redis. One late answer on a busy machine is counted in the database
 * for that request alone, so the other processes, still counting in Redis, do not lose sight of
 * this process's attempts for the breaker's whole `REDIS_BREAKER_OPEN_MS`.
 */
export const REDIS_BREAKER_FAILURES = 3

/**
 * Once the breaker opens, how long the counters skip Redis and count in the database before one
 * request tries Redis again. A hung Redis then costs a few answer waits per this long, not one per
 * rate-limited request.
 */
export const REDIS_BREAKER_OPEN_MS = 2_000

/**
 * `command`'s answer, or a rejection once `ms` have passed without one while this process was
 * free to read it. A busy process (a long render, a start-up) must not blame Redis for its own
 * delay: a timer that fires late by more than `ms` gives Redis another `ms`, and an answer already
 * waiting on the socket is read, in the same turn of the event loop, before the command is given
 * up (timers run before the loop reads its sockets; setImmediate runs after it has).
 */
function answerWithin<T>(command: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const giveUp = () => {
      if (settled) return
      settled = true
      reject(new Error(`redis did not answer within ${ms} ms`))
    }
    const arm = (armedAt: number): NodeJS.Timeout =>
      setTimeout(() => {
        if (performance.now() - armedAt > 2 * ms) timer = arm(performance.now())
        else setImmediate(giveUp)
      }, ms)
    let timer = arm(performance.now())
    command.then(
      (answer) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(answer)
      },
      (err: unknown) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        reject(err instanceof Error ? err : new Error(String(err)))
      },
    )
  })
}

/**
 * A circuit breaker: closed, Redis is asked; open after `failuresToOpen` failures in a row, it is
 * skipped until one request tries it again.
 */
function createBreaker(openMs: number, failuresToOpen: number, onClosed: () => void) {
  let open = false
  let failures = 0
  let retryAt = 0
  return {
    /** Whether to ask Redis now. Once open, one caller per `openMs` is let through to probe. */
    allows(): boolean {
      if (!open) return true
      const now = Date.now()
      if (now < retryAt) return false
      retryAt = now + openMs
      return true
    },
    failed() {
      failures += 1
      if (!open && failures < failuresToOpen) return
      open = true
      retryAt = Date.now() + openMs
    },
    succeeded() {
      failures = 0
      if (!open) return
      open = false
      onClosed()
    },
    /** Redis said it is ready again (a new connection): no need to wait for a probe. */
    reset() {
      open = false
      failures = 0
    },
  }
}

/** How many keys a process remembers Redis's last count of, for an outage (oldest go first). */
const REMEMBERED_KEYS = 10_000

/**
 * Adds a count from the table to a Redis key, which starts with the row's remaining window when
 * Redis has no such key: the attempts counted during an outage go on counting after it.
 */
const MERGE_SCRIPT = `redis.call('set', KEYS[1], 0, 'PX', ARGV[2], 'NX')
return redis.call('incrby', KEYS[1], ARGV[1])`

export type RedisCounters = RateLimitCounters & {
  /**
   * Moves the counts the table took during a Redis outage into Redis (each row once, whichever
   * process gets it). Called when Redis is reachable again; answers how many keys it moved.
   */
  mergeDatabaseCounts(): Promise<number>
  /** Redis is connected again: ask it from the next attempt on, without waiting for a probe. */
  redisReady(): void
}

export type RedisCountersOptions = {
  /** Redis answered again after the breaker had opened (a hang ended): merge what the table took. */
  onRecovered?: () => void
  breakerOpenMs?: number
}

/**
 * Counters in Redis, with the table standing in while Redis is unreachable, so that an outage
 * neither locks people out nor resets anyone's budget:
 * - during an outage the table counts, on top of the last count this process had from Redis
 *   for the key (attempts made before the outage still count);
 * - once Redis is back, the table's counts are added to Redis's for the rest of their window
 *   (attempts made during the outage still count).
 */
export function redisCounters(
  redis: Redis,
  db: Db,
  options: RedisCountersOptions = {},
): RedisCounters {
  const database = databaseCounters(db)
  /** Keys reset while Redis was skipped: deleted there once it answers again. */
  const resetLater = new Map<string, [RateLimitRule, string]>()
  const resetNow = () => {
    for (const [fullKey, [rule, key]] of resetLater) {
      resetLater.delete(fullKey)
      limiterFor(rule)
        .delete(key)
        .catch(() => {
          // Gone again: the key runs out with its window instead.
        })
    }
  }
  const breaker = createBreaker(
    options.breakerOpenMs ?? REDIS_BREAKER_OPEN_MS,
    REDIS_BREAKER_FAILURES,
    () => {
      resetNow()
      options.onRecovered?.()
    },
  )
  /** A Redis command through the breaker; undefined when Redis is skipped or fails. */
  async function ask<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!breaker.allows()) return undefined
    try {
      const answer = await answerWithin(command(), REDIS_ANSWER_MS)
      breaker.succeeded()
      return answer
    } catch {
      // Unreachable, hung past the command timeout, or the connection broke under the command.
      breaker.failed()
      return undefined
    }
  }
  const limiterFor = limiterCache(
    (rule) =>
      new RateLimiterRedis({
        points: rule.points,
        duration: rule.duration,
        keyPrefix: prefixOf(rule),
        storeClient: redis,
        // Fail at once while Redis is away, so the table takes over without waiting.
        rejectIfRedisNotReady: true,
      }),
  )
  /** Redis's last answer per full key, in this process: `{ consumed, expiresAt }`. */
  const lastSeen = new Map<string, { consumed: number; expiresAt: number }>()
  const remember = (fullKey: string, count: Count) => {
    lastSeen.delete(fullKey)
    lastSeen.set(fullKey, { consumed: count.consumed, expiresAt: Date.now() + count.msBeforeNext })
    if (lastSeen.size > REMEMBERED_KEYS) lastSeen.delete(lastSeen.keys().next().value!)
  }

  return {
    async add(rule, key) {
      const fullKey = `${prefixOf(rule)}:${key}`
      // Unreachable or hung: the table counts instead.
      const fromRedis = await ask(async () => toCount(await limiterFor(rule).penalty(key)))
      if (fromRedis) {
        remember(fullKey, fromRedis)
        return fromRedis
      }
      const inTable = await database.add(rule, key)
      const seen = lastSeen.get(fullKey)
      const seenMs = seen ? seen.expiresAt - Date.now() : 0
      if (!seen || seenMs <= 0) return inTable
      return {
        consumed: inTable.consumed + seen.consumed,
        msBeforeNext: Math.max(inTable.msBeforeNext, seenMs),
      }
    },
    async peek(rule, key) {
      const fullKey = `${prefixOf(rule)}:${key}`
      const inRedis = await ask(async () => (await limiterFor(rule).get(key))?.consumedPoints ?? 0)
      if (inRedis !== undefined) return inRedis
      const seen = lastSeen.get(fullKey)
      const fromSeen = seen && seen.expiresAt > Date.now() ? seen.consumed : 0
      return (await database.peek(rule, key)) + fromSeen
    },
    async reset(rule, key) {
      const fullKey = `${prefixOf(rule)}:${key}`
      lastSeen.delete(fullKey)
      const deleted = async () => {
        const done = await ask(async () => {
          await limiterFor(rule).delete(key)
          return true
        })
        if (!done && resetLater.size < REMEMBERED_KEYS) resetLater.set(fullKey, [rule, key])
      }
      await Promise.all([deleted(), database.reset(rule, key)])
    },
    redisReady() {
      breaker.reset()
      resetNow()
    },
    async mergeDatabaseCounts() {
      // Rows are deleted and added to Redis in one transaction: if Redis fails halfway, the
      // rows stay, and the next reconnection (of this process or another) moves them.
      return db.transaction(async (tx) => {
        const rows = await tx
          .delete(rateLimits)
          .where(and(like(rateLimits.key, `${KEY_PREFIX}:%`), gt(rateLimits.expire, new Date())))
          .returning()
        if (rows.length === 0) return 0
        const pipeline = redis.pipeline()
        for (const row of rows) {
          const ms = Math.max(1, row.expire!.getTime() - Date.now())
          pipeline.eval(MERGE_SCRIPT, 1, row.key, row.points, ms)
        }
        const results = (await pipeline.exec()) ?? []
        const failed = results.find(([err]) => err)
        if (failed || results.length !== rows.length) {
          throw failed?.[0] ?? new Error('Redis did not answer every merge')
        }
        return rows.length
      })
    },
  }
}
