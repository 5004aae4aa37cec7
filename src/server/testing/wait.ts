/** Polls `check` until it holds; throws after `timeoutMs`. For tests that wait on a process. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Whether a URL answers 2xx yet (a server still starting refuses the connection). */
export async function answersOk(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok
  } catch {
    return false
  }
}
