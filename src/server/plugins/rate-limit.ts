import { isIPv6 } from 'node:net'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import {
  RateLimiterDrizzle,
  type RateLimiterAbstract,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import type { Db } from '../db/client'
import { rateLimits } from '../db/schema/index'
import { AppError } from '../lib/app-error'

/** Attempts allowed per key within `duration` seconds. Features declare their own rules. */
export type RateLimitRule = {
  readonly name: string
  readonly points: number
  readonly duration: number
}

export const defineRateLimit = (name: string, points: number, duration: number): RateLimitRule => ({
  name,
  points,
  duration,
})

/** Keys rules count by. An address is the client's IP; an IPv6 client counts per /64 network. */
export const limitKeys = {
  address(request: FastifyRequest): string {
    return `ip:${networkOf(request.ip)}`
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
      /** Counts one attempt; throws 429 with Retry-After once the key is over its limit. */
      consume(rule: RateLimitRule, key: string): Promise<void>
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
 * the database (table rate_limits). When Redis is unreachable, the database counts instead, so a
 * Redis outage neither locks people out nor lets attempts through unlimited.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: RateLimitOptions) => {
    const limiters = new Map<string, RateLimiterAbstract>()
    const limiterFor = (rule: RateLimitRule): RateLimiterAbstract => {
      const existing = limiters.get(rule.name)
      if (existing) return existing
      const common = { points: rule.points, duration: rule.duration, keyPrefix: `rl:${rule.name}` }
      const inDatabase = new RateLimiterDrizzle({
        ...common,
        storeClient: opts.db,
        schema: rateLimits,
        clearExpiredByTimeout: false,
      })
      const limiter = opts.redis
        ? new RateLimiterRedis({
            ...common,
            storeClient: opts.redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: inDatabase,
          })
        : inDatabase
      limiters.set(rule.name, limiter)
      return limiter
    }

    app.decorate('rateLimit', {
      async consume(rule, key) {
        if (!opts.enabled) return
        try {
          await limiterFor(rule).consume(key)
        } catch (err) {
          if (err instanceof RateLimiterRes) {
            const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000))
            throw new AppError(
              'RATE_LIMITED',
              `Too many attempts. Please try again in ${seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`,
              429,
              { 'retry-after': String(seconds) },
            )
          }
          throw err
        }
      },
      async reset(rule, key) {
        if (!opts.enabled) return
        await limiterFor(rule).delete(key)
      },
    })
  },
  { name: 'rate-limit' },
)
