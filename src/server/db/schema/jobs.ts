import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core'
import { createdAt, users } from './users'

export const jobStatus = pgEnum('job_status', ['queued', 'running', 'done', 'failed'])

/**
 * Long work taken off the request that asked for it (a monthly blast to every member): the
 * request inserts a row and answers at once; a worker in any app process claims it (`locked_until`
 * lets several processes share the work, as the outbox does) and records its progress here, which
 * is what the control panel shows.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    /** What to do, such as `monthly-blast`; the worker looks the kind up in its list. */
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: jobStatus('status').notNull().default('queued'),
    /** How much of the work is done, out of `total` (null until the job knows its size). */
    done: integer('done').notNull().default(0),
    total: integer('total'),
    /** What the job produced, for whoever asked (the number of e-mails queued, say). */
    result: jsonb('result').$type<Record<string, unknown>>(),
    /** A message for the operator when the job failed, never a stack trace. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    requestedById: integer('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_due_idx').on(t.status, t.runAfter),
    index('jobs_kind_created_idx').on(t.kind, t.createdAt),
    check('jobs_progress_sane', sql`${t.done} >= 0 and (${t.total} is null or ${t.total} >= 0)`),
  ],
)
