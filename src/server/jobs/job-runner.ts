import { and, asc, eq, getTableColumns, inArray, lt, lte, or, sql } from 'drizzle-orm'
import { jobs } from '../db/schema/index'
import type { AppDeps } from '../deps'
import { AppError } from '../lib/app-error'
import { isUnavailableError, loggableError } from '../lib/db-errors'
import type { AnyJobDefinition, JobProgress, JobRow } from './job'

type Logger = {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

/** How a claimed job's run ended, for the log and the metrics. */
export type JobOutcome = 'done' | 'failed' | 'retry' | 'handed-back' | 'lost'

export type JobRunnerOptions = {
  deps: AppDeps
  /** The kinds this process runs; it claims no other (a newer process may know more). */
  jobs: readonly AnyJobDefinition[]
  log: Logger
  /**
   * How long a claim holds without news before another process may take the job over, on the
   * assumption that this one died. Renewed by every progress report and by a heartbeat, so it
   * only has to outlast a stalled database call. Default 60 s.
   */
  lockMs?: number
  /**
   * Claims before a job is marked failed. A claim counts as an attempt, so a run that never
   * ends (the process is killed each time) stops being retried. Default 3.
   */
  maxAttempts?: number
  onFinish?: (kind: string, outcome: JobOutcome) => void
}

export type JobRunner = {
  /** Claims one due job and runs it; false when none was due. Runs never overlap. */
  runOnce(): Promise<boolean>
  /**
   * Ends the run in progress at its next progress report, hands its job back for the next
   * process (its attempt given back), and resolves once it has. A stopped runner claims nothing.
   */
  stop(): Promise<void>
}

/** Wait before a job that met an unreachable database is tried again: 30 s, 1 min, 2 min... */
const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 15 * 60_000)

const UNEXPECTED_FAILURE = (id: number) =>
  `The job stopped on an unexpected error; the server log has the details (job ${id}).`

/** Thrown through a job's `run` by `progress()` when the run must end where it is. */
class RunEnded extends Error {
  constructor(readonly why: 'stopping' | 'lost') {
    super(why === 'stopping' ? 'the process is stopping' : 'the job was taken over')
  }
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { deps, log, onFinish } = options
  const { db, clock } = deps
  const lockMs = options.lockMs ?? 60_000
  const maxAttempts = options.maxAttempts ?? 3
  const byKind = new Map(options.jobs.map((job) => [job.kind, job]))
  const kinds = [...byKind.keys()]

  let stopping = false
  // Every run chains onto the previous one: runs never overlap, and stop() waits for this.
  let tail: Promise<unknown> = Promise.resolve()

  async function claim(): Promise<JobRow | undefined> {
    if (kinds.length === 0) return undefined
    const now = clock.now()
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, kinds),
          or(
            and(eq(jobs.status, 'queued'), lte(jobs.runAfter, now)),
            // A lease that ran out belongs to a process that died mid-run: take the job over.
            and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, now)),
          ),
        ),
      )
      .orderBy(asc(jobs.id))
      .limit(1)
      // Other processes skip the row we lock here instead of waiting for it.
      .for('update', { skipLocked: true })
    const [row] = await db
      .update(jobs)
      .set({
        status: 'running',
        lockedUntil: new Date(now.getTime() + lockMs),
        attempts: sql`${jobs.attempts} + 1`,
        startedAt: sql`coalesce(${jobs.startedAt}, ${now.toISOString()}::timestamptz)`,
      })
      .where(inArray(jobs.id, due))
      .returning(getTableColumns(jobs))
    return row
  }

  async function runClaimed(row: JobRow): Promise<JobOutcome> {
    let lease = row.lockedUntil!
    let lost = false
    let writes: Promise<unknown> = Promise.resolve()

    /**
     * Writes to our job while it is still ours: the claim is identified by the exact lease we
     * wrote, so once another process has taken the job over, nothing of ours lands. Serialised,
     * so the heartbeat and progress never race over the lease.
     */
    function write(set: Partial<typeof jobs.$inferInsert>, renew: boolean): Promise<boolean> {
      const next = writes.then(async () => {
        if (lost) return false
        const until = renew ? new Date(clock.now().getTime() + lockMs) : null
        const updated = await db
          .update(jobs)
          .set({ ...set, lockedUntil: until })
          .where(and(eq(jobs.id, row.id), eq(jobs.status, 'running'), eq(jobs.lockedUntil, lease)))
          .returning({ id: jobs.id })
        if (updated.length === 0) {
          lost = true
          return false
        }
        if (until) lease = until
        return true
      })
      writes = next.catch(() => {})
      return next
    }

    const finish = (set: Partial<typeof jobs.$inferInsert>) =>
      write({ finishedAt: clock.now(), ...set }, false)

    if (row.attempts > maxAttempts) {
      const attempts = row.attempts - 1
      await finish({
        status: 'failed',
        attempts,
        error: `The job did not finish in ${attempts} attempts (each ended by a restart).`,
      })
      log.error({ jobId: row.id, kind: row.kind, attempts }, 'job: gave up after lost attempts')
      return 'failed'
    }

    const job = byKind.get(row.kind)!
    const parsed = job.payloadSchema.safeParse(row.payload)
    if (!parsed.success) {
      await finish({ status: 'failed', error: 'The job was queued with a request it cannot read.' })
      log.error({ jobId: row.id, kind: row.kind, issues: parsed.error.issues }, 'job: bad payload')
      return 'failed'
    }

    const progress: JobProgress = async ({ done, total }) => {
      if (stopping) throw new RunEnded('stopping')
      const ours = await write(
        total === undefined ? { done } : { done, total: Math.max(total, done) },
        true,
      )
      if (!ours) throw new RunEnded('lost')
    }
    // A job that is busy between two progress reports still holds its lease.
    const heartbeat = setInterval(() => {
      write({}, true).catch((err: unknown) => {
        log.warn({ err: loggableError(err), jobId: row.id }, 'job: lease renewal failed')
      })
    }, lockMs / 3)
    heartbeat.unref()

    log.info({ jobId: row.id, kind: row.kind, attempt: row.attempts }, 'job: started')
    try {
      const result = await job.run(deps, parsed.data as never, progress)
      clearInterval(heartbeat)
      if (!(await finish({ status: 'done', result }))) {
        log.warn({ jobId: row.id }, 'job: finished, but it had been taken over meanwhile')
        return 'lost'
      }
      log.info({ jobId: row.id, kind: row.kind, result }, 'job: done')
      return 'done'
    } catch (err) {
      clearInterval(heartbeat)
      if (err instanceof RunEnded && err.why === 'lost') {
        log.warn({ jobId: row.id }, 'job: taken over by another process, run ended')
        return 'lost'
      }
      if (err instanceof RunEnded) {
        // Shutdown: the next process starts it again; this claim used up no attempt.
        await write({ status: 'queued', attempts: row.attempts - 1, runAfter: clock.now() }, false)
        log.info({ jobId: row.id }, 'job: handed back for the next process')
        return 'handed-back'
      }
      if (isUnavailableError(err) && row.attempts < maxAttempts) {
        const runAfter = new Date(clock.now().getTime() + retryDelayMs(row.attempts))
        await write({ status: 'queued', runAfter }, false).catch(() => {})
        log.warn({ err: loggableError(err), jobId: row.id }, 'job: database unavailable, retry')
        return 'retry'
      }
      const message = err instanceof AppError ? err.message : UNEXPECTED_FAILURE(row.id)
      await finish({ status: 'failed', error: message })
      log.error({ err: loggableError(err), jobId: row.id, kind: row.kind }, 'job: failed')
      return 'failed'
    }
  }

  function runOnce(): Promise<boolean> {
    const run = tail.then(async () => {
      if (stopping) return false
      const row = await claim()
      if (!row) return false
      const outcome = await runClaimed(row)
      onFinish?.(row.kind, outcome)
      return true
    })
    tail = run.catch(() => {})
    return run
  }

  return {
    runOnce,
    async stop() {
      stopping = true
      await tail
    },
  }
}
