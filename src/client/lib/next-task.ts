type Scheduler = { yield?: () => Promise<void> }

/**
 * Resolves in a new task, so the work after it runs apart from the work before: the browser may
 * paint and answer a tap in between, and neither part alone is a long task on a slow phone
 * (`scheduler.yield` where the browser has it, a zero timeout elsewhere).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => setTimeout(resolve, 0))
}
