import type { Page } from '@playwright/test'
import { createMember, expect, logIn, test } from './fixtures'

/**
 * What 5 idle seconds may cost the page's main thread (on a phone that is battery): the goal,
 * 50 ms. Measured in this suite on 2 cores: the visitor's /home, with the join card's sparkles in
 * view, 20 to 28 ms; a member's, 6 to 7 ms.
 */
const IDLE_BUDGET_MS = 50

/**
 * Main-thread task time (Chromium's `TaskDuration`) over 5 s of doing nothing, once the page has
 * settled. Of two windows the cheaper counts, so one garbage collection does not fail the page;
 * something that ticks costs in both.
 */
async function idleTaskMs(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const taskSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    return metrics.find((m) => m.name === 'TaskDuration')!.value
  }
  const windows: number[] = []
  for (let i = 0; i < 2; i++) {
    const before = await taskSeconds()
    await page.waitForTimeout(5_000)
    windows.push((await taskSeconds()) - before)
  }
  await cdp.detach()
  return Math.min(...windows) * 1000
}

/** /home with its cards on screen, its data loaded and its entrance done. */
async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('article').first()).toBeVisible()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1_000)
}

test.describe('an idle page is idle', () => {
  // Side by side, after every other journey: two idle pages do not disturb each other's count.
  test.describe.configure({ timeout: 60_000, mode: 'parallel' })

  test('/home for a visitor at 375 px costs under 50 ms in 5 idle seconds', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/home')
    await settle(page)
    // The join card, whose sparkles never stop while it is on screen, is in view.
    await expect(page.getByText('Ready to talk about more than just the weather?')).toBeInViewport()
    expect(await idleTaskMs(page)).toBeLessThan(IDLE_BUDGET_MS)
  })

  test('/home for a member at 375 px costs under 50 ms in 5 idle seconds', async ({
    page,
    request,
  }) => {
    const member = await createMember(request)
    await page.setViewportSize({ width: 375, height: 800 })
    await logIn(page, member.username, member.password)
    await settle(page)
    expect(await idleTaskMs(page)).toBeLessThan(IDLE_BUDGET_MS)
  })
})
