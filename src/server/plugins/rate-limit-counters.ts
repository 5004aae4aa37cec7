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

/** The counters behind `app.rateLimit`: count one attempt, or forget a key. */
export type RateLimitCounters = {
  add(rule: RateLimitRule, key: string): Promise<Count>
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
    reset: async (rule, key) => {
      await limiterFor(rule).delete(key)
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
}

/**
 * Counters in Redis, with the table standing in while Redis is unreachable, so that an outage
 * neither locks people out nor resets anyone's budget:
 * - during an outage the table counts, on top of the last count this process had from Redis
 *   for the key (attempts made before the outage still count);
 * - once Redis is back, the table's counts are added to Redis's for the rest of their window
 *   (attempts made during the outage still count).
 */
export function redisCounters(redis: Redis, db: Db): RedisCounters {
  const database = databaseCounters(db)
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
      let fromRedis: Count | undefined
      try {
        fromRedis = toCount(await limiterFor(rule).penalty(key))
      } catch {
        // Unreachable, or the connection broke under the command: the table counts instead.
      }
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
    async reset(rule, key) {
      lastSeen.delete(`${prefixOf(rule)}:${key}`)
      await Promise.all([
        limiterFor(rule)
          .delete(key)
          .catch(() => {
            // Unreachable: the key runs out with its window instead.
          }),
        database.reset(rule, key),
      ])
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
