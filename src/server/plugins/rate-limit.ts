import type { FastifyInstance } from 'fastify'
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

/** Attempts allowed per key within `duration` seconds. */
export const rateLimitRules = {
  login: { points: 10, duration: 15 * 60 },
  loginIp: { points: 100, duration: 15 * 60 },
  signup: { points: 10, duration: 60 * 60 },
  inviteCode: { points: 20, duration: 15 * 60 },
  passwordReset: { points: 5, duration: 60 * 60 },
  pollCode: { points: 5, duration: 60 * 60 },
} as const
export type RateLimitName = keyof typeof rateLimitRules

declare module 'fastify' {
  interface FastifyInstance {
    rateLimit: {
      /** Counts one attempt; throws 429 with Retry-After once the key is over its limit. */
      consume(name: RateLimitName, key: string): Promise<void>
      reset(name: RateLimitName, key: string): Promise<void>
    }
  }
}

/**
 * Counters live where every app process sees them: in Redis when REDIS_URL is set, otherwise in
 * the database (table rate_limits).
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; redis?: Redis }) => {
    const limiters = {} as Record<RateLimitName, RateLimiterAbstract>
    for (const [name, rule] of Object.entries(rateLimitRules) as [
      RateLimitName,
      (typeof rateLimitRules)[RateLimitName],
    ][]) {
      const common = { ...rule, keyPrefix: `rl:${name}` }
      limiters[name] = opts.redis
        ? new RateLimiterRedis({ ...common, storeClient: opts.redis })
        : new RateLimiterDrizzle({
            ...common,
            storeClient: opts.db,
            schema: rateLimits,
            clearExpiredByTimeout: false,
          })
    }
    app.decorate('rateLimit', {
      async consume(name, key) {
        try {
          await limiters[name].consume(key)
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
      async reset(name, key) {
        await limiters[name].delete(key)
      },
    })
  },
  { name: 'rate-limit' },
)
