import type { Page } from '@playwright/test'
import { e2e } from './env'
import { createMember, createPodclub, DEMO_PASSWORD, expect, logInRequest, test } from './fixtures'

/**
 * A tap on a server-rendered page before its code runs (docs/decisions/027): on a phone the
 * buttons show long before the page's JavaScript has run, and a press then is carried out once
 * it does, never silently dropped. The CPU is slowed 6× (as Lighthouse's phone), the page's code
 * comes 1.5 s late (a slow network), and each press is made with the mouse where the button is,
 * the moment it shows.
 */

/** Records, at each press, whether the page was running yet (`<html data-ready>`). */
async function recordPresses(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { pressesBeforeReady: number }
    w.pressesBeforeReady = 0
    window.addEventListener(
      'pointerdown',
      () => {
        if (!document.documentElement.hasAttribute('data-ready')) w.pressesBeforeReady += 1
      },
      true,
    )
  })
}

test('a press before the page runs is carried out, on the feed and on a podclub page', async ({
  page,
  playwright,
}) => {
  // Six pages at 6× CPU: on a busy 2-core machine each takes several seconds to run.
  test.setTimeout(240_000)
  const podclub = await createPodclub(playwright, { title: `Early press ${Date.now()}` })
  const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
  await logInRequest(page.request, member.username, member.password)
  await recordPresses(page)
  // The page's code arrives late, as on a slow network: its HTML shows, and is pressed, first.
  await page.route('**/assets/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await route.continue()
  })
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })

  // Each try takes the seat or gives it back, so the next one finds the other button.
  const tries = [
    ['/home', '[ register ]'],
    ['/home', '[ cancel ]'],
    ['/home', '[ register ]'],
    [`/podclubs/${podclub.id}`, '[ cancel ]'],
    [`/podclubs/${podclub.id}`, '[ register ]'],
    [`/podclubs/${podclub.id}`, '[ cancel ]'],
  ] as const
  let pressedEarly = 0
  for (const [path, label] of tries) {
    // The page's load does not wait for it to run: the press comes as soon as the button shows.
    await page.goto(path, { waitUntil: 'commit' })
    const where =
      path === '/home' ? page.getByRole('article', { name: podclub.title }) : page.getByRole('main')
    const button = where.getByRole('button', { name: label })
    await button.waitFor({ state: 'visible' })
    // Where a person would see it: a card low in the feed is scrolled to first, and the page is
    // scrolled a little in any case, which hydrating it must not undo.
    await button.scrollIntoViewIfNeeded()
    await page.mouse.wheel(0, 40)
    const box = (await button.boundingBox())!
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    const scrolledTo = await page.evaluate(() => window.scrollY)
    expect(scrolledTo, 'the page was scrolled before it ran').toBeGreaterThan(0)
    pressedEarly += await page.evaluate(
      () => (window as unknown as { pressesBeforeReady: number }).pressesBeforeReady,
    )
    await expect(
      where
        .getByText(
          label === '[ register ]'
            ? "You're registered, see you there!"
            : /seats? left|\[ register \]/,
        )
        .first(),
      `${label} on ${path}`,
    ).toBeVisible({ timeout: 20_000 })
    if (label === '[ cancel ]') {
      await expect(where.getByRole('button', { name: '[ register ]' })).toBeVisible({
        timeout: 20_000,
      })
    }
    // Hydrating did not send the page back to its top: what was pressed is still in view.
    expect(await page.evaluate(() => window.scrollY), 'the page kept its place').toBeGreaterThan(0)
    if (path === '/home') await expect(where).toBeInViewport()
  }
  // Presses came before the pages ran (else this tested nothing), and each counted once: six
  // presses, three seats taken and three given back, so none is held now.
  console.log(`presses made before the page ran: ${pressedEarly} of ${tries.length}`)
  expect(pressedEarly, 'presses made before the page ran').toBeGreaterThanOrEqual(1)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
  const detail = await (await page.request.get(`/api/v1/podclubs/${podclub.id}/`)).json()
  const reserved = JSON.stringify(detail.data.api_registered_usernames.reserved)
  expect(reserved).not.toContain(member.username)
})

test('a login sent before the page runs is carried out once it does, its fields as typed', async ({
  page,
}) => {
  // Typing two fields at 6× CPU takes longer than any fixed delay is sure to: the page's code
  // (its entry and the screen's files, which the page preloads beside it) comes once the form
  // has been sent.
  let codeMayCome = () => {}
  const formSent = new Promise<void>((resolve) => {
    codeMayCome = resolve
  })
  await page.route('**/assets/*.js', async (route) => {
    await formSent
    await route.continue()
  })
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
  await page.goto('/login', { waitUntil: 'commit' })
  await page.getByLabel('Username').fill('jon.b')
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  // Enter in the password field: a submit no press started.
  await page.getByLabel('Password').press('Enter')
  const ranBefore = await page.evaluate(() => document.documentElement.hasAttribute('data-ready'))
  expect(ranBefore, 'the page had not run when the form was sent').toBe(false)
  codeMayCome()
  await expect(page).toHaveURL(/\/home$/, { timeout: 20_000 })
  // Sent by the page's code, not by the browser: no field in the address.
  expect(page.url()).not.toContain('password')
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
})
