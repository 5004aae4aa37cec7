import type { Page } from '@playwright/test'
import { e2e } from './env'
import {
  createMember,
  createPodclub,
  DEMO_SEAT_FILLERS,
  expect,
  expectNoAxeViolations,
  logIn,
  test,
  toastWith,
} from './fixtures'

/** Where to save screenshots of the screens checked here; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

/** The detail page has no axe violation at a phone's width and a desktop's, in this state. */
async function checkAtWidths(page: Page, state: string) {
  const details = page.getByRole('region', { name: 'details' })
  // The action's toast has said its piece; closed, it leaves the page in view.
  const toasts = page.getByRole('region', { name: /notifications/i })
  for (const close of await toasts.getByRole('button', { name: 'Close' }).all()) await close.click()
  await expect(toasts.getByRole('listitem')).toHaveCount(0)
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await expect(details).toBeVisible()
    await expectNoAxeViolations(page, `the detail page (${state}) at ${width}px`)
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}/detail-${state}-${width}.png`, fullPage: true })
    }
  }
}

test.describe('taking a seat from the detail page', () => {
  test.describe.configure({ timeout: 90_000 })

  test('a visitor follows a share link, logs in from the page, comes back and takes a seat; the feed shows it too', async ({
    page,
    playwright,
  }) => {
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const podclub = await createPodclub(playwright, {
      title: `A Seat by the Window ${Date.now().toString(36)}`,
    })
    await page.emulateMedia({ reducedMotion: 'reduce' })

    // The share link's address, opened by someone not logged in.
    await page.goto(`/podclubs/${podclub.id}`)
    const details = page.getByRole('region', { name: 'details' })
    await expect(details).toContainText('9 seats left')
    const login = details.getByRole('link', { name: '[ login to register ]' })
    await expect(login).toBeVisible()
    await checkAtWidths(page, 'visitor')

    await login.click()
    await expect(page).toHaveURL(`/login?next=%2Fpodclubs%2F${podclub.id}`)
    await page.getByLabel('username').fill(member.username)
    await page.getByLabel('password').fill(member.password)
    await page.getByRole('button', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(`/podclubs/${podclub.id}`)

    const register = details.getByRole('button', { name: '[ register ]' })
    await expect(register).toBeEnabled()
    await checkAtWidths(page, 'member')

    await register.click()
    await expect(toastWith(page, 'Successfully registered for the podclub')).toBeVisible()
    await expect(details).toContainText("You're registered, see you there!")
    await expect(details).toContainText('8 seats left')
    await expect(details.getByRole('button', { name: '[ cancel ]' })).toBeEnabled()
    const share = details.getByRole('link', { name: '[ share to x ]' })
    expect(decodeURIComponent((await share.getAttribute('href'))!)).toContain(e2e.clubCode)
    await expect(page.getByRole('region', { name: /member\(s\) attending/ })).toContainText(
      member.username,
    )
    await checkAtWidths(page, 'registered')

    // The feed, read before, shows the seat too.
    await page.getByRole('link', { name: 'podclub.' }).click()
    const card = page.getByRole('article', { name: podclub.title })
    await expect(card).toContainText("You're registered, see you there!")
    await expect(card).toContainText('8 seats left')

    // By the keyboard: the feed is live, and other journeys' seats change the height of cards
    // above this one, so a pointer aimed at it may land on its neighbour as it moves.
    await card.getByRole('link', { name: podclub.title }).press('Enter')
    await expect(page).toHaveURL(`/podclubs/${podclub.id}`)
    await details.getByRole('button', { name: '[ cancel ]' }).click()
    await expect(toastWith(page, 'Successfully canceled registration')).toBeVisible()
    await expect(details.getByRole('button', { name: '[ register ]' })).toBeEnabled()
    await expect(details).toContainText('9 seats left')
  })

  test('a full podclub says so on its page and offers its seat waitlist', async ({
    page,
    playwright,
  }) => {
    const waiter = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const holder = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const podclub = await createPodclub(playwright, {
      title: `No Chairs Left ${Date.now().toString(36)}`,
      seatHolders: [...DEMO_SEAT_FILLERS, holder.username],
    })
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await logIn(page, waiter.username, waiter.password, `/podclubs/${podclub.id}`)

    const details = page.getByRole('region', { name: 'details' })
    await expect(details).toContainText('No seats left')
    await expect(details.getByRole('button', { name: '[ registration full ]' })).toBeDisabled()
    const join = details.getByRole('button', { name: '[ join waitlist ]' })
    await expect(join).toHaveAccessibleDescription(
      'Join the seat waitlist and the next freed seat is yours.',
    )
    await checkAtWidths(page, 'full')

    await join.click()
    await expect(toastWith(page, 'Joined the seat waitlist')).toContainText(
      "You're #1 in line for a freed seat.",
    )
    await expect(details).toContainText('#1 on the seat waitlist.')
    await expect(details).toContainText('1 waiting for a freed seat')
    await checkAtWidths(page, 'waitlisted')

    await details.getByRole('button', { name: '[ leave waitlist ]' }).click()
    await expect(toastWith(page, 'Left the seat waitlist')).toBeVisible()
    await expect(details.getByRole('button', { name: '[ join waitlist ]' })).toBeEnabled()
  })
})
