import { Redis, type RedisOptions } from 'ioredis'

/** How long a Redis command may take before it fails and the database counts instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 50

type Log = {
  warn: (obj: object, message: string) => void
  info: (message: string) => void
}

/**
 * The Redis client for rate-limit counters (REDIS_URL). Commands fail at once while it is away
 * (no offline queue), so the rate limits count in the database instead; `/readyz` reports Redis
 * as degraded and stays ready.
 * Its connection errors go to the process's log, once per outage: without a listener ioredis
 * prints every one of them to stderr itself, outside the log.
 */
export function connectRedis(url: string, log: Log, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // A Redis that holds the connection open but stops answering must not hold logins with it:
    // the command fails after a few tens of milliseconds (a local Redis answers in well under
    // one), and the limiter's breaker then skips Redis for a while (`rate-limit-counters.ts`).
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    ...options,
  })
  let down = false
  redis.on('error', (err: Error) => {
    if (!down) log.warn({ err: { message: err.message } }, 'redis is unreachable')
    down = true
  })
  redis.on('ready', () => {
    if (down) log.info('redis is reachable again')
    down = false
  })
  return redis
}
