import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createScheduler, type RunOutcome } from './scheduler'

/** A promise a test settles by hand: a run that takes as long as the test wants. */
function gate() {
  let open!: () => void
  let fail!: (err: Error) => void
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { promise, open, fail }
}

function setup() {
  const errors: Array<{ obj: object; msg: string }> = []
  const runs: Array<{ task: string; outcome: RunOutcome }> = []
  const scheduler = createScheduler({
    log: { debug: () => {}, error: (obj, msg) => void errors.push({ obj, msg }) },
    onRun: (task, outcome) => void runs.push({ task, outcome }),
    now: () => 0,
  })
  return { scheduler, errors, runs }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the scheduler', () => {
  it('runs a task every interval once started, and not before', async () => {
    const { scheduler } = setup()
    let count = 0
    scheduler.add({ name: 'count', intervalMs: 1_000, run: async () => void count++ })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(count).toBe(0)
    scheduler.start()
    await vi.advanceTimersByTimeAsync(3_500)
    expect(count).toBe(3)
    await scheduler.stop()
  })

  it('never overlaps two runs of a task: a slow run makes the next ticks pass', async () => {
    const { scheduler, runs } = setup()
    let active = 0
    let most = 0
    let calls = 0
    const slow = gate()
    scheduler.add({
      name: 'slow',
      intervalMs: 1_000,
      run: async () => {
        calls++
        active++
        most = Math.max(most, active)
        if (calls === 1) await slow.promise
        active--
      },
    })
    scheduler.start()
    await vi.advanceTimersByTimeAsync(4_000)
    expect(calls).toBe(1)
    expect(runs.filter((r) => r.outcome === 'skipped')).toHaveLength(3)
    slow.open()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(calls).toBe(2)
    expect(most).toBe(1)
    await scheduler.stop()
  })

  it('logs a failed run and runs the task again at the next tick', async () => {
    const { scheduler, errors, runs } = setup()
    let calls = 0
    scheduler.add({
      name: 'flaky',
      intervalMs: 1_000,
      run: async () => {
        calls++
        if (calls === 1) throw new Error('database away')
      },
    })
    scheduler.start()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(errors).toHaveLength(1)
    expect(errors[0]!.msg).toBe('scheduler: run failed')
    expect(errors[0]!.obj).toMatchObject({ task: 'flaky', err: { message: 'database away' } })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(calls).toBe(2)
    expect(runs.map((r) => r.outcome)).toEqual(['failed', 'ok'])
    await scheduler.stop()
  })

  it('stop() waits for the run in flight, and nothing runs after it', async () => {
    const { scheduler } = setup()
    const inFlight = gate()
    let calls = 0
    let finished = false
    scheduler.add({
      name: 'long',
      intervalMs: 1_000,
      run: async () => {
        calls++
        await inFlight.promise
        finished = true
      },
    })
    scheduler.start()
    await vi.advanceTimersByTimeAsync(1_000)
    let stopped = false
    const stopping = scheduler.stop().then(() => {
      stopped = true
    })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(stopped).toBe(false)
    inFlight.open()
    await stopping
    expect(finished).toBe(true)
    await vi.advanceTimersByTimeAsync(10_000)
    scheduler.wake('long')
    expect(calls).toBe(1)
  })

  it('wake() runs an idle task at once, and a busy one once more right after', async () => {
    const { scheduler } = setup()
    const first = gate()
    let calls = 0
    scheduler.add({
      name: 'woken',
      intervalMs: 60_000,
      run: async () => {
        calls++
        if (calls === 1) await first.promise
      },
    })
    scheduler.start()
    scheduler.wake('woken')
    expect(calls).toBe(1)
    // Asked three times while busy: one more run, not three.
    scheduler.wake('woken')
    scheduler.wake('woken')
    scheduler.wake('woken')
    first.open()
    await vi.advanceTimersByTimeAsync(10)
    expect(calls).toBe(2)
    await scheduler.stop()
  })

  it('runs again at once while the task says more is waiting', async () => {
    const { scheduler } = setup()
    const batches = [10, 10, 3]
    const seen: number[] = []
    scheduler.add({
      name: 'batches',
      intervalMs: 60_000,
      run: async () => {
        const size = batches.shift() ?? 0
        seen.push(size)
        return size
      },
      runAgainIf: (size) => size === 10,
    })
    scheduler.start()
    await vi.advanceTimersByTimeAsync(60_000 + 10)
    expect(seen).toEqual([10, 10, 3])
    await scheduler.stop()
  })
})
