import { Redis, type RedisOptions } from 'ioredis'

/**
 * How long ioredis lets a command go unanswered before it fails it: a backstop that clears
 * commands a hung Redis never answers. The rate limits stop waiting far sooner
 * (`REDIS_ANSWER_MS` in `rate-limit-counters.ts`); this one also covers the ready check made on
 * each connection, which a process busy starting must not fail.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000

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
    // the limiter gives up on it after a few tens of milliseconds and its breaker then skips
    // Redis for a while (`rate-limit-counters.ts`); ioredis drops the command later.
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
