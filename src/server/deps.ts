import type { Redis } from 'ioredis'
import type { Db, Listen, PoolStats } from './db/client'
import type { Clock } from './lib/clock'
import type { Env } from './lib/env'

/** What every feature may use; built once by main.ts (or by tests with fakes for time). */
export type AppDeps = {
  env: Env
  db: Db
  /** NOTIFY on the database, for the live stream (features/live). */
  listen: Listen
  clock: Clock
  /** Asks the outbox worker to look for new mail soon; `transaction()` calls it after commit. */
  wakeOutbox: () => void
  /** Asks the job runner to look for queued jobs soon; `transaction()` calls it after commit. */
  wakeJobs: () => void
  /** Signs CSRF tokens: SESSION_SECRET, or the one kept in the database (see bootstrap). */
  sessionSecret: string
  /** The reusable club code: CLUB_INVITE_CODE, or the one made on first start (see bootstrap). */
  clubInviteCode: string
  redis?: Redis
  /** The PostgreSQL pool's figures, for the metrics; absent on PGlite. */
  poolStats?: () => PoolStats
  /** Rate limits count attempts (default). Test apps turn them off unless a test is about them. */
  rateLimits?: boolean
}
