import type { Page } from '@playwright/test'
import { e2e } from './env'
import { createMember, expect, logIn, test, useDemoServer } from './fixtures'

// A club where nothing happens meanwhile: on the run's shared server, other journeys' seat
// changes reach the page through its live stream (a seat change costs a member's /home about
// 11 ms of its main thread), and the page measured is then not idle.
const IDLE_PORT = e2e.ownServerPort.idle
test.use({ baseURL: `http://127.0.0.1:${IDLE_PORT}` })
useDemoServer(IDLE_PORT)

/**
 * What 5 idle seconds may cost the page's main thread in CPU time (on a phone that is battery):
 * the goal, 50 ms. Measured on 2 cores on a slow day: the visitor's /home, with the join card's
 * sparkles in view, 8 to 10 ms (35 to 52 ms while they moved at every frame rather than in 100 ms
 * steps); a member's, 2 to 4 ms. Each run prints its figures.
 */
const IDLE_BUDGET_MS = 50

/**
 * The main thread's CPU time (Chromium's `ThreadTime`) over 5 s of doing nothing, once the page
 * has settled. CPU time, not the time its tasks took by the clock: beside other journeys on a busy
 * machine a task that waits for a core lasts longer without costing more (by the clock, the same
 * page measured 62 ms there against 20 to 28 alone). Of two windows the cheaper counts, so one
 * garbage collection does not fail the page; something that ticks costs in both.
 */
async function idleCpuMs(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  // At the machine's own speed: the pauses with which Chromium slows the CPU for a run that asks
  // for it (E2E_CPU_SLOWDOWN) count as the main thread's time.
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  await cdp.send('Performance.enable')
  const cpuSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    return metrics.find((m) => m.name === 'ThreadTime')!.value
  }
  const windows: number[] = []
  for (let i = 0; i < 2; i++) {
    const before = await cpuSeconds()
    await page.waitForTimeout(5_000)
    windows.push((await cpuSeconds()) - before)
  }
  await cdp.detach()
  const ms = windows.map((w) => Math.round(w * 10_000) / 10)
  console.log(`${page.url()}: main thread CPU in two idle 5 s windows: ${ms.join(', ')} ms`)
  return Math.min(...ms)
}

/** /home with its cards on screen, its data loaded and its entrance done. */
async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('article').first()).toBeVisible()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1_000)
}

test.describe('an idle page is idle', () => {
  test.describe.configure({ timeout: 60_000 })

  test('/home for a visitor at 375 px costs under 50 ms in 5 idle seconds', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/home')
    await settle(page)
    // The join card, whose sparkles never stop while it is on screen, is in view.
    await expect(page.getByText('Ready to talk about more than just the weather?')).toBeInViewport()
    expect(await idleCpuMs(page)).toBeLessThan(IDLE_BUDGET_MS)
  })

  test('/home for a member at 375 px costs under 50 ms in 5 idle seconds', async ({
    page,
    request,
  }) => {
    const member = await createMember(request)
    await page.setViewportSize({ width: 375, height: 800 })
    await logIn(page, member.username, member.password)
    await settle(page)
    expect(await idleCpuMs(page)).toBeLessThan(IDLE_BUDGET_MS)
  })
})
