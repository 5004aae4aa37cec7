import type { AppDeps } from './deps'
import { monthlyBlastJob } from './features/blasts/blasts.jobs'
import { createOutboxWorker, type OutboxRunResult } from './features/mail/outbox.worker'
import type { MailTransport } from './features/mail/mail.transport'
import { pruneExpiredJob } from './features/maintenance/maintenance.jobs'
import { sendDueRemindersJob } from './features/reminders/reminders.jobs'
import type { AnyJobDefinition } from './jobs/job'
import { createJobRunner, type JobOutcome } from './jobs/job-runner'
import { createScheduler, type RunOutcome } from './jobs/scheduler'

/** Every kind of queued job this app runs (`enqueueJob`); the runner claims these kinds only. */
export const queuedJobs: readonly AnyJobDefinition[] = [monthlyBlastJob]

type Logger = {
  debug: (obj: object, msg: string) => void
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export type BackgroundWorkOptions = {
  deps: AppDeps
  transport: MailTransport
  log: Logger & { child: (bindings: object) => Logger }
  /** Where runs are counted (`app.metrics`). */
  metrics?: {
    scheduledRun: (task: string, outcome: RunOutcome, seconds: number) => void
    jobRun: (kind: string, outcome: JobOutcome) => void
    outboxRun: (result: OutboxRunResult) => void
  }
  /**
   * How often the outbox (default 2 s) and the job runner (5 s) look for work they were not
   * woken for: mail or jobs another process committed, retries that came due.
   */
  intervalsMs?: { outbox?: number; jobs?: number }
}

/**
 * What a server process does besides answering requests, all under one scheduler: the outbox,
 * the job runner, pruning and reminders (docs/decisions/016). Every process runs all of it;
 * their claims in the database share the work out.
 */
export function createBackgroundWork(options: BackgroundWorkOptions) {
  const { deps, transport, log, metrics } = options
  const outbox = createOutboxWorker({
    db: deps.db,
    transport,
    clock: deps.clock,
    from: deps.env.MAIL_FROM,
    log: log.child({ component: 'outbox' }),
  })
  const runner = createJobRunner({
    deps,
    jobs: queuedJobs,
    log: log.child({ component: 'jobs' }),
    onFinish: metrics?.jobRun,
  })
  const scheduler = createScheduler({
    log: log.child({ component: 'scheduler' }),
    onRun: metrics?.scheduledRun,
  })

  scheduler.add({
    name: 'outbox',
    intervalMs: options.intervalsMs?.outbox ?? 2_000,
    async run() {
      const result = await outbox.runOnce()
      metrics?.outboxRun(result)
      return result
    },
    // A full batch suggests more is due: carry on without waiting for the interval.
    runAgainIf: (r) => r.delivered + r.retried + r.failed >= outbox.batchSize,
  })
  scheduler.add({
    name: 'jobs',
    intervalMs: options.intervalsMs?.jobs ?? 5_000,
    run: () => runner.runOnce(),
    runAgainIf: (ranOne) => ranOne,
  })
  scheduler.add({
    name: pruneExpiredJob.id,
    intervalMs: pruneExpiredJob.intervalMs,
    async run() {
      const deleted = await pruneExpiredJob.run(deps)
      log.debug({ deleted }, 'pruned expired rows')
    },
  })
  scheduler.add({
    name: sendDueRemindersJob.id,
    intervalMs: sendDueRemindersJob.intervalMs,
    async run() {
      const sent = await sendDueRemindersJob.run(deps)
      if (sent.length > 0) log.info({ sent }, 'reminders queued')
    },
  })

  return {
    start: () => scheduler.start(),
    /** For `deps.wakeOutbox`: mail was committed. */
    wakeOutbox: () => scheduler.wake('outbox'),
    /** For `deps.wakeJobs`: a job was committed. */
    wakeJobs: () => scheduler.wake('jobs'),
    /**
     * Stops it all: the e-mail being sent and the job in progress end at their next safe point
     * (the rest of the outbox batch and the job are handed back for the next process), then
     * every run in flight is waited for.
     */
    async stop() {
      await Promise.all([outbox.stop(), runner.stop(), scheduler.stop()])
    },
  }
}

export type BackgroundWork = ReturnType<typeof createBackgroundWork>
