import { e2e } from './env'
import { createMember, expect, loginThroughPage, test, waitForMail } from './fixtures'

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
    const toast = page.getByRole('status').filter({ hasText: 'Failed to login' })
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
