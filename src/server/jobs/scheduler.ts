/**
 * The one place the process's recurring work runs: each task every `intervalMs`, never two runs
 * of one task at once, and nothing after `stop()`. See docs/decisions/016.
 */

type Logger = {
  debug: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export type ScheduledTask<R = unknown> = {
  /** Names the task in logs and metrics (`prune-expired`, `outbox`). */
  name: string
  intervalMs: number
  run: () => Promise<R>
  /**
   * Whether to run again at once after a run that ended with `result` (a full batch suggests
   * more is waiting), instead of waiting for the next tick.
   */
  runAgainIf?: (result: R) => boolean
}

export type RunOutcome = 'ok' | 'failed' | 'skipped'

export type SchedulerOptions = {
  log: Logger
  /** Told of every run's end (and of every tick skipped for a run still going): metrics. */
  onRun?: (task: string, outcome: RunOutcome, seconds: number) => void
  /** The clock for durations; tests pass their own. */
  now?: () => number
}

export type Scheduler = {
  /** Adds a task; it runs once `start()` has been called. Names are unique. */
  add<R>(task: ScheduledTask<R>): void
  /** Starts every task's timer; each task's first run comes one interval later. */
  start(): void
  /**
   * Asks for a run of the task soon: now when it is idle, or once more right after the run in
   * progress (one more, however often it is asked meanwhile). Nothing once stopped.
   */
  wake(name: string): void
  /** Stops the timers and resolves once every run in progress has ended. */
  stop(): Promise<void>
}

type Entry = {
  task: ScheduledTask<unknown>
  timer?: NodeJS.Timeout
  running?: Promise<void>
  wakeRequested: boolean
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { log, onRun } = options
  const now = options.now ?? (() => performance.now())
  const entries = new Map<string, Entry>()
  let started = false
  let stopped = false

  function runEntry(entry: Entry): void {
    if (stopped) return
    if (entry.running) {
      // A run that outlasts its interval makes the next tick pass, instead of stacking runs.
      log.debug({ task: entry.task.name }, 'scheduler: previous run still going, tick skipped')
      onRun?.(entry.task.name, 'skipped', 0)
      return
    }
    entry.wakeRequested = false
    const startedAt = now()
    entry.running = (async () => {
      let again = false
      try {
        const result = await entry.task.run()
        onRun?.(entry.task.name, 'ok', (now() - startedAt) / 1000)
        again = entry.task.runAgainIf?.(result) ?? false
      } catch (err) {
        // Logged and counted; the task runs again at its next tick as if nothing happened.
        log.error({ err, task: entry.task.name }, 'scheduler: run failed')
        onRun?.(entry.task.name, 'failed', (now() - startedAt) / 1000)
      } finally {
        entry.running = undefined
      }
      if ((again || entry.wakeRequested) && !stopped) {
        // A new turn of the event loop, so a long series of runs never grows the stack.
        setImmediate(() => runEntry(entry))
      }
    })()
  }

  return {
    add(task) {
      if (entries.has(task.name)) throw new Error(`scheduler: a task "${task.name}" exists`)
      const entry: Entry = { task: task as ScheduledTask<unknown>, wakeRequested: false }
      entries.set(task.name, entry)
      if (started) startTimer(entry)
    },
    start() {
      if (started) return
      started = true
      for (const entry of entries.values()) startTimer(entry)
    },
    wake(name) {
      const entry = entries.get(name)
      if (!entry || !started || stopped) return
      if (entry.running) entry.wakeRequested = true
      else runEntry(entry)
    },
    async stop() {
      stopped = true
      for (const entry of entries.values()) clearInterval(entry.timer)
      await Promise.all([...entries.values()].map((entry) => entry.running))
    },
  }

  function startTimer(entry: Entry) {
    entry.timer = setInterval(() => runEntry(entry), entry.task.intervalMs)
    // The timers alone never keep the process alive: shutdown decides when it ends.
    entry.timer.unref()
  }
}
