import type { BrowserContext, Page, Route } from '@playwright/test'
import { e2e } from './env'
import {
  createMember,
  createPodclub,
  expect,
  expectNoAxeViolations,
  logIn,
  loginThroughPage,
  test,
  toasts,
  toastWith,
  waitForMail,
} from './fixtures'

/** Ends the session as an expiry or a logout elsewhere would: the browser's cookie is gone. */
async function dropSessionCookie(context: BrowserContext) {
  await context.clearCookies({ name: 'sessionid' })
}

/** Exactly one toast, the session's, and none of the action's own failure, for a while. */
async function expectOnlyTheSessionMessage(page: Page, failureTitle: string) {
  await expect(toasts(page)).toHaveCount(1)
  await expect(toasts(page).first()).toContainText('Session expired. Please login again.')
  // Read it as a person would, pointer on it: that holds it open past its 5 seconds.
  await toasts(page).first().hover()
  // The action's failure would follow within moments; it must not replace the message.
  await page.waitForTimeout(1_000)
  await expect(toasts(page)).toHaveCount(1)
  await expect(toasts(page).first()).toContainText('Session expired. Please login again.')
  await expect(page.getByText(failureTitle)).toHaveCount(0)
  await expect(page.getByText('Authentication credentials were not provided.')).toHaveCount(0)
}

test.describe('accounts', () => {
  test('the first super user logs in, reaches the control panel and logs out', async ({ page }) => {
    await loginThroughPage(page, e2e.admin.username, e2e.admin.password)
    const header = page.getByRole('banner')
    await header.getByRole('link', { name: '[ control panel ]' }).click()
    await expect(page).toHaveURL(/\/controlpanel$/)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()

    await header.getByRole('button', { name: new RegExp(e2e.admin.username) }).click()
    await page.getByRole('menuitem', { name: '[ logout ]' }).click()
    await expect(page).toHaveURL(/\/home$/)
    await expect(header.getByRole('link', { name: '[ login ]' })).toBeVisible()
    const me = await page.request.get('/api/v1/whoami/')
    expect((await me.json()).data.isAuthenticated).toBe(false)
  })

  test('a wrong password shows the failure toast and clears the form', async ({ page }) => {
    await page.goto('/login')
    await page.getByLabel('username').fill(e2e.admin.username)
    await page.getByLabel('password').fill('not-the-password')
    await page.getByRole('button', { name: '[ login ]' }).click()
    const toast = toastWith(page, 'Failed to login')
    await expect(toast).toContainText('Invalid username or password.')
    await expect(page.getByLabel('username')).toHaveValue('')
    await expect(page.getByLabel('password')).toHaveValue('')
    await expect(page).toHaveURL(/\/login$/)
  })

  test('a new member gets the welcome mail by SMTP, logs in, and is kept out of the control panel', async ({
    page,
    playwright,
  }) => {
    const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const member = await createMember(request)
    const mail = await waitForMail((m) => m.to.includes(member.email))
    expect(mail.subject).toBe('Welcome to podclub')
    expect(mail.text).toContain(`Hi ${member.username}`)

    await loginThroughPage(page, member.username, member.password)
    const header = page.getByRole('banner')
    await expect(header.getByRole('button', { name: new RegExp(member.username) })).toBeVisible()
    await expect(header.getByRole('link', { name: '[ control panel ]' })).toHaveCount(0)
    await page.goto('/controlpanel')
    await expect(page).toHaveURL(/\/home$/)
    await page.goto('/login')
    await expect(page).toHaveURL(/\/home$/)
  })
})

test('the way in and out works from the keyboard alone', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByLabel('username')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.getByLabel('username').focus()
  await page.keyboard.type(e2e.admin.username)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('password')).toBeFocused()
  await page.keyboard.type(e2e.admin.password)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/home$/)
  // After a navigation the page moves focus to the new content, for screen readers.
  await expect(page.getByRole('main')).toBeFocused()

  const menu = page
    .getByRole('banner')
    .getByRole('button', { name: new RegExp(e2e.admin.username) })
  await menu.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('menuitem', { name: '[ profile ]' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: '[ invite friends ]' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: '[ logout ]' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('banner').getByRole('link', { name: '[ login ]' })).toBeVisible()
})

test.describe('a session that ended', () => {
  test.describe.configure({ timeout: 90_000 })

  test('register and invite each say so once, and the login link comes back to the page', async ({
    page,
    context,
    playwright,
  }) => {
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const podclub = await createPodclub(playwright, {
      title: `The Long Goodbye ${Date.now().toString(36)}`,
    })
    await page.emulateMedia({ reducedMotion: 'reduce' })

    // From a card on /home.
    await logIn(page, member.username, member.password)
    await dropSessionCookie(context)
    const card = page.getByRole('article', { name: podclub.title })
    await card.getByRole('button', { name: '[ register ]' }).click()
    await expectOnlyTheSessionMessage(page, 'Registration failed')
    await expect(page.getByRole('banner').getByRole('link', { name: '[ login ]' })).toBeVisible()
    await expectNoAxeViolations(page, 'the session message')
    if (process.env.E2E_SCREENSHOTS_DIR) {
      await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS_DIR}/session-ended.png` })
    }
    const back = toasts(page).first().getByRole('link', { name: '[ login ]' })
    await expect(back).toHaveAttribute('href', '/login?next=%2Fhome')
    await back.click()
    await expect(page).toHaveURL('/login?next=%2Fhome')
    await page.getByLabel('username').fill(member.username)
    await page.getByLabel('password').fill(member.password)
    await page.getByRole('button', { name: '[ login ]' }).click()
    await expect(page).toHaveURL('/home')

    // The invite form.
    await dropSessionCookie(context)
    await page.getByLabel('Their e-mail').fill(`friend.${Date.now()}@example.com`)
    await page.getByRole('button', { name: '[ send invite ]' }).click()
    await expectOnlyTheSessionMessage(page, 'Failed to Send Invite')

    // From the podclub's own page: the way back in returns there.
    await logIn(page, member.username, member.password, `/podclubs/${podclub.id}`)
    await dropSessionCookie(context)
    await page
      .getByRole('region', { name: 'details' })
      .getByRole('button', { name: '[ register ]' })
      .click()
    await expectOnlyTheSessionMessage(page, 'Registration failed')
    await toasts(page).first().getByRole('link', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(`/login?next=%2Fpodclubs%2F${podclub.id}`)
    await page.getByLabel('username').fill(member.username)
    await page.getByLabel('password').fill(member.password)
    await page.getByRole('button', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(`/podclubs/${podclub.id}`)
    await expect(
      page.getByRole('region', { name: 'details' }).getByRole('button', { name: '[ register ]' }),
    ).toBeEnabled()
  })

  test('a login link that points off the site goes Home instead', async ({ page, playwright }) => {
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    await page.goto('/login?next=%2F%2Fexample.com%2Fphish')
    await page.getByLabel('username').fill(member.username)
    await page.getByLabel('password').fill(member.password)
    await page.getByRole('button', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(`${e2e.baseUrl}/home`)
  })
})

test.describe('a logout that does not get through', () => {
  for (const [what, fail] of [
    ['no answer', (route: Route) => route.abort('failed')],
    [
      'a 503',
      (route: Route) => route.fulfill({ status: 503, json: { detail: 'Service unavailable.' } }),
    ],
  ] as const) {
    test(`with ${what}, says so and stays logged in; once it gets through, logs out`, async ({
      page,
      playwright,
    }) => {
      const member = await createMember(
        await playwright.request.newContext({ baseURL: e2e.baseUrl }),
      )
      await logIn(page, member.username, member.password)
      let tries = 0
      await page.route('**/api/v1/logout/', async (route) => {
        tries += 1
        await fail(route)
      })
      const header = page.getByRole('banner')
      const menu = header.getByRole('button', { name: new RegExp(member.username) })
      await menu.click()
      await page.getByRole('menuitem', { name: '[ logout ]' }).click()

      const toast = toastWith(page, 'Failed to Logout')
      await expect(toast).toContainText('You are still logged in.')
      expect(tries).toBe(2)
      await expect(menu).toBeVisible()
      await expect(header.getByRole('link', { name: '[ login ]' })).toHaveCount(0)
      const me = await page.request.get('/api/v1/whoami/')
      expect((await me.json()).data.isAuthenticated).toBe(true)

      await page.unroute('**/api/v1/logout/')
      await menu.click()
      await page.getByRole('menuitem', { name: '[ logout ]' }).click()
      await expect(page).toHaveURL(/\/home$/)
      await expect(header.getByRole('link', { name: '[ login ]' })).toBeVisible()
      const after = await page.request.get('/api/v1/whoami/')
      expect((await after.json()).data.isAuthenticated).toBe(false)
    })
  }
})
