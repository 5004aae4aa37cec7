import { eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Job as JobView } from '#contract/jobs'
import type { Db, Tx } from '../db/client'
import { jobs } from '../db/schema/index'
import { noteJobEnqueued } from '../db/transaction'
import type { AppDeps } from '../deps'
import { notFound } from '../lib/app-error'

/**
 * Reports how far a job has come; also renews the run's lease. Throws when the run must end
 * here (the process is stopping, or another process took the job over after the lease ran
 * out): a job calls it between units of work that are safe to repeat.
 */
export type JobProgress = (progress: { done: number; total?: number }) => Promise<void>

/**
 * Work that outlasts a request: queued by `enqueueJob` in the requester's transaction, run by
 * the job runner of any process (see docs/decisions/016). `run` may be run again after a crash
 * or a shutdown, from the start: whatever it writes must be safe to write twice (the monthly
 * blast's dedupe keys). Its result is stored for whoever asked; a thrown `AppError`'s message
 * is stored as the failure the operator reads.
 */
export type JobDefinition<P> = {
  kind: string
  payloadSchema: z.ZodType<P>
  run: (deps: AppDeps, payload: P, progress: JobProgress) => Promise<Record<string, unknown>>
}

/** Any job, whatever its payload: what the runner's list holds (it parses the payload first). */
export type AnyJobDefinition = {
  kind: string
  payloadSchema: z.ZodType<unknown>
  run: (deps: AppDeps, payload: never, progress: JobProgress) => Promise<Record<string, unknown>>
}

/** Keeps the payload's type between the schema, `run` and `enqueueJob`. */
export function defineJob<P>(job: JobDefinition<P>): JobDefinition<P> {
  return job
}

export type JobRow = typeof jobs.$inferSelect

/**
 * Queues a job in the transaction of the change that asks for it: if that rolls back, the job
 * never runs; once it commits, `transaction()` wakes the job runner.
 */
export async function enqueueJob<P>(
  tx: Tx,
  job: JobDefinition<P>,
  payload: P,
  opts: { now: Date; requestedById?: number },
): Promise<JobRow> {
  const [row] = await tx
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payloadSchema.parse(payload) as Record<string, unknown>,
      runAfter: opts.now,
      requestedById: opts.requestedById ?? null,
    })
    .returning()
  noteJobEnqueued()
  return row!
}

/** A job as the API shows it. */
export function toJobView(row: JobRow): JobView {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    done: row.done,
    total: row.total,
    result: row.result ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  }
}

/** Where a job stands; 404 for an id that is not a job. */
export async function readJob(db: Db, id: number): Promise<JobView> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  if (!row) throw notFound('Job')
  return toJobView(row)
}
