import { isIPv6 } from 'node:net'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { Db } from '../db/client'
import { AppError } from '../lib/app-error'
import {
  type Count,
  databaseCounters,
  type RateLimitCounters,
  type RateLimitRule,
  redisCounters,
} from './rate-limit-counters'

export type { RateLimitRule } from './rate-limit-counters'

export const defineRateLimit = (name: string, points: number, duration: number): RateLimitRule => ({
  name,
  points,
  duration,
})

/** Keys rules count by. An address is the client's IP; an IPv6 client counts per /64 network. */
export const limitKeys = {
  address(request: FastifyRequest): string {
    return limitKeys.ip(request.ip)
  },
  /** The key of a client address, as `address()` makes it from a request. */
  ip(ip: string): string {
    return `ip:${networkOf(ip)}`
  },
  /** One budget per account, whatever name or e-mail was typed to reach it. */
  account(idOrName: number | string): string {
    return typeof idOrName === 'number'
      ? `user:${idOrName}`
      : `name:${idOrName.trim().toLowerCase()}`
  },
  email(email: string): string {
    return `email:${email.trim().toLowerCase()}`
  },
}

/** The /64 an IPv6 address belongs to (one home or one cloud host); an IPv4 address as it is. */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]!
  if (!isIPv6(ip)) return ip
  const [head = '', tail = ''] = ip.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimit: {
      /**
       * Counts one attempt; throws 429 with Retry-After once the key is over its limit. Answers
       * how many the key has made in its window, this one included, and when the window ends
       * (0 and 0 with limits off).
       */
      consume(rule: RateLimitRule, key: string): Promise<Count>
      /** Counts one attempt that is never refused for it (a failure already answered). */
      count(rule: RateLimitRule, key: string): Promise<void>
      /** How many attempts the key has made in its window, without counting one. */
      peek(rule: RateLimitRule, key: string): Promise<number>
      reset(rule: RateLimitRule, key: string): Promise<void>
    }
  }
}

export type RateLimitOptions = {
  db: Db
  redis?: Redis
  /** False in tests that are not about limits: every attempt passes. */
  enabled: boolean
}

/**
 * Counters live where every app process sees them: in Redis when REDIS_URL is set, otherwise in
 * the database (table rate_limits). While Redis is unreachable the database counts instead, on
 * top of what Redis last said, and its counts join Redis's when Redis is back (see
 * `redisCounters`): an outage, however often it comes and goes, neither locks people out nor
 * gives anyone a fresh budget.
 *
 * Registered once for the whole app: API routes and the app's routes outside the API (the
 * calendar feed) share it.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: RateLimitOptions) => {
    const { redis } = opts
    let counters: RateLimitCounters = databaseCounters(opts.db)
    if (redis) {
      const merge = () => {
        inRedis
          .mergeDatabaseCounts()
          .then((moved) => {
            if (moved > 0) app.log.info({ moved }, 'rate-limit counts moved back to redis')
          })
          .catch((err: unknown) => {
            app.log.warn({ err }, 'rate-limit counts could not be moved back to redis yet')
          })
      }
      const inRedis = redisCounters(redis, opts.db, { onRecovered: merge })
      counters = inRedis
      const ready = () => {
        inRedis.redisReady()
        merge()
      }
      redis.on('ready', ready)
      app.addHook('onClose', async () => {
        redis.off('ready', ready)
      })
    }

    app.decorate('rateLimit', {
      async consume(rule, key) {
        if (!opts.enabled) return { consumed: 0, msBeforeNext: 0 }
        const count = await counters.add(rule, key)
        if (count.consumed <= rule.points) return count
        throw tooMany(count.msBeforeNext)
      },
      async count(rule, key) {
        if (!opts.enabled) return
        await counters.add(rule, key)
      },
      async peek(rule, key) {
        if (!opts.enabled) return 0
        return counters.peek(rule, key)
      },
      async reset(rule, key) {
        if (!opts.enabled) return
        await counters.reset(rule, key)
      },
    })
  },
  { name: 'rate-limit' },
)

/** The answer to an attempt over its limit: 429, with when to try again. */
export function tooMany(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000))
  return new AppError(
    'RATE_LIMITED',
    `Too many attempts. Please try again in ${seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`,
    { 'retry-after': String(seconds) },
  )
}
