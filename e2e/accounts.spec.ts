import type { Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { e2e } from './env'
import {
  createMember,
  expect,
  expectNoAxeViolations,
  logIn,
  logInRequest,
  loginThroughPage,
  test,
  toastWith,
  waitForMail,
} from './fixtures'

let seq = 0
/** A username and address no other run or test has used. */
function newPerson() {
  seq += 1
  const username = `acc.${Date.now().toString(36)}.${seq}`
  return { username, email: `${username}@example.com`, password: 'listening-closely-1' }
}

async function fillRegisterForm(page: Page, person: ReturnType<typeof newPerson>) {
  await page.getByLabel('username').fill(person.username)
  await page.getByLabel('email').fill(person.email)
  await page.getByLabel('city').fill('Brooklyn')
  await page.getByLabel('how did you find us?').fill('a QR code at a podcast meetup')
  await page.getByLabel('password', { exact: true }).fill(person.password)
  await page.getByLabel('confirm password').fill(person.password)
}

test.describe('accounts and the public pages', () => {
  test('the QR code decodes to the register link, which signs a visitor up after the code of conduct', async ({
    page,
  }) => {
    await page.goto('/qr-invite')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('welcome to the club!')
    const qr = page.getByRole('img', { name: /QR code of the invite link/ })
    await expect(qr).toHaveAttribute('width', '200')
    const png = PNG.sync.read(await qr.screenshot())
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
    const inviteLink = `${e2e.baseUrl}/register/${e2e.clubCode}`
    expect(decoded?.data).toBe(inviteLink)
    await expect(page.getByRole('link', { name: inviteLink })).toBeVisible()

    // The scanned link: the code is checked from the path and the form shows.
    await page.goto(decoded!.data)
    const person = newPerson()
    const create = page.getByRole('button', { name: '[ create account ]' })
    await expect(create).toBeDisabled()
    await fillRegisterForm(page, person)
    await create.click()
    const dialog = page.getByRole('dialog', { name: 'code of conduct' })
    await expect(dialog).toContainText("don't be a d*ck.")
    await dialog.getByRole('button', { name: '[ accept & continue ]' }).click()

    await expect(page).toHaveURL(/\/home$/)
    await expect(toastWith(page, 'Account Created')).toContainText('Account created successfully!')
    await expect(
      page.getByRole('banner').getByRole('button', { name: new RegExp(person.username) }),
    ).toBeVisible()

    // The welcome mail, in text and HTML, confirms the address through its link.
    const welcome = await waitForMail((m) => m.to.includes(person.email))
    expect(welcome.subject).toBe('Welcome to podclub')
    expect(welcome.html).toContain('podclub')
    const confirmLink = new RegExp(`${e2e.baseUrl}/confirm-email/\\d+/[\\w.-]+`).exec(welcome.text)
    expect(confirmLink).not.toBeNull()
    await page.goto(confirmLink![0])
    await expect(page.getByText('Your e-mail address is confirmed. Thank you!')).toBeVisible()
  })

  test('a visitor registers with the single-use code a member e-mailed them, which then is spent', async ({
    page,
    browser,
    playwright,
  }) => {
    const host = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const person = newPerson()
    const memberPage = await browser.newPage()
    await logIn(memberPage, host.username, host.password)
    await memberPage.getByLabel('Their e-mail').fill(person.email)
    await memberPage.getByRole('button', { name: '[ send invite ]' }).click()
    await expect(toastWith(memberPage, 'Invitation Sent')).toBeVisible()
    await memberPage.close()

    const invite = await waitForMail((m) => m.to.includes(person.email))
    const link = new RegExp(`${e2e.baseUrl}/register/(welcome-[\\w-]+)`).exec(invite.text)
    expect(link, invite.text).not.toBeNull()
    await page.goto(link![0])
    await fillRegisterForm(page, person)
    await page.getByRole('button', { name: '[ create account ]' }).click()
    await page
      .getByRole('dialog', { name: 'code of conduct' })
      .getByRole('button', { name: '[ accept & continue ]' })
      .click()
    await expect(page).toHaveURL(/\/home$/)
    await expect(
      page.getByRole('banner').getByRole('button', { name: new RegExp(person.username) }),
    ).toBeVisible()

    // The code was for one person: the link no longer lets anyone in.
    const stranger = await browser.newPage()
    await stranger.goto(link![0])
    await expect(stranger.getByText('Failed to validate invite code')).toBeVisible()
    await stranger.close()
  })

  test("registering with a member's e-mail address is refused without naming them, and the member is e-mailed", async ({
    page,
    playwright,
  }) => {
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    await page.goto(`/register/${e2e.clubCode}`)
    await fillRegisterForm(page, { ...newPerson(), email: member.email })
    await page.getByRole('button', { name: '[ create account ]' }).click()
    await page
      .getByRole('dialog', { name: 'code of conduct' })
      .getByRole('button', { name: '[ accept & continue ]' })
      .click()
    await expect(page.getByLabel('email')).toHaveAccessibleDescription(
      'We could not create an account with this e-mail address. If it is yours, log in or reset your password; we have e-mailed it instructions.',
    )
    await expect(page).toHaveURL(new RegExp(`/register/${e2e.clubCode}$`))
    await expect(page.getByText(member.username)).toHaveCount(0)
    const mail = await waitForMail(
      (m) => m.to.includes(member.email) && /tried to sign up/.test(m.subject),
    )
    expect(mail.text).toContain(`Hi ${member.username},`)
    expect(mail.text).toContain(`${e2e.baseUrl}/forgot-password`)
  })

  test('declining the code of conduct creates no account', async ({ page }) => {
    const person = newPerson()
    await page.goto('/register')
    await page.getByLabel('invite code').fill('not-a-code')
    await page.getByRole('button', { name: '[ continue ]' }).click()
    await expect(page.getByText('Failed to validate invite code')).toBeVisible()
    await expect(toastWith(page, 'Invalid invite code')).toBeVisible()

    await page.getByLabel('invite code').fill(e2e.clubCode)
    await page.getByRole('button', { name: '[ continue ]' }).click()
    await fillRegisterForm(page, person)
    await page.getByRole('button', { name: '[ create account ]' }).click()
    await page.getByRole('button', { name: '[ decline ]' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await expect(toastWith(page, 'Registration cancelled')).toContainText(
      'You must accept the code of conduct to join podclub.',
    )
    await expect(page).toHaveURL(/\/register$/)
    const login = await page.request.post('/api/v1/login/', {
      headers: {
        'X-CSRFToken': (await page.context().cookies()).find((c) => c.name === 'csrftoken')!.value,
      },
      data: { username: person.username, password: person.password },
    })
    expect(login.status()).toBe(400)
  })

  test('a forgotten password is reset through the e-mailed link, which then stops working', async ({
    page,
    playwright,
    browser,
  }) => {
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    // The member is also logged in on another device; the reset will end that session.
    const otherDevice = await browser.newContext({ baseURL: e2e.baseUrl })
    const otherPage = await otherDevice.newPage()
    await logInRequest(otherDevice.request, member.username, member.password)

    await page.goto('/login')
    await page.getByRole('link', { name: 'forgot password?' }).click()
    await expect(page).toHaveURL(/\/forgot-password$/)
    await page.getByLabel('email').fill(member.email)
    await page.getByRole('button', { name: '[ send reset link ]' }).click()
    await expect(toastWith(page, 'Reset link sent')).toContainText(
      'Check your email for instructions to reset your password.',
    )

    const mail = await waitForMail(
      (m) => m.to.includes(member.email) && m.subject.includes('Reset'),
    )
    const link = new RegExp(`${e2e.baseUrl}/password-reset/[\\w.-]+`).exec(mail.text)![0]
    expect(mail.html).toContain(`href="${link}"`)
    await page.goto(link)
    await page.getByLabel('new password').fill('a-new-password-1')
    await page.getByLabel('confirm password').fill('a-new-password-1')
    await page.getByLabel('confirm password').press('Enter')
    await expect(page).toHaveURL(/\/login$/)
    await expect(toastWith(page, 'Password reset successful')).toContainText(
      'Please login with your new password.',
    )
    const elsewhere = await otherPage.request.get('/api/v1/whoami/')
    expect((await elsewhere.json()).data.isAuthenticated).toBe(false)
    await otherDevice.close()
    await loginThroughPage(page, member.username, 'a-new-password-1')

    // Logged in, the reset pages send the member home; logged out, the used link is refused.
    await page.goto(link)
    await expect(page).toHaveURL(/\/home$/)
    await page.context().clearCookies()
    await page.goto(link)
    await expect(page.getByText('invalid password reset token.', { exact: true })).toBeVisible()
    await expect(toastWith(page, 'Invalid reset token')).toBeVisible()
    await expect(page.getByLabel('new password')).toHaveCount(0)
  })

  test('a logged-in member opening the visitor screens lands on /home', async ({
    page,
    playwright,
  }) => {
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    await logIn(page, member.username, member.password)
    for (const path of [
      '/login',
      '/register',
      '/register/somecode',
      '/forgot-password',
      '/password-reset/x',
    ]) {
      await page.goto(path)
      await expect(page, path).toHaveURL(/\/home$/)
    }
    // The member menu leads to the QR page.
    await page
      .getByRole('banner')
      .getByRole('button', { name: new RegExp(member.username) })
      .click()
    await page.getByRole('menuitem', { name: '[ invite friends ]' }).click()
    await expect(page).toHaveURL(/\/qr-invite$/)
  })

  test('joining the waitlist thanks the visitor and goes to /', async ({ page }) => {
    await page.goto('/waitlist')
    await page.getByLabel('email').fill(`${newPerson().username}@example.com`)
    await page.getByLabel(/favorite podcast/).fill('Radiolab')
    await page.getByRole('button', { name: '[ join the waitlist ]' }).click()
    await expect(toastWith(page, "You're on the waitlist!")).toContainText('invite code')
    await expect(page).toHaveURL(`${e2e.baseUrl}/`)
  })
})

test.describe('accessibility of the account screens', () => {
  // Each test runs axe on several screens, seconds each on a busy 2-core machine.
  test.describe.configure({ timeout: 90_000 })
  for (const width of [375, 1280]) {
    test(`axe finds no violations on the public screens at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 })
      const screens: [string, string, () => Promise<void>][] = [
        ['/login', 'login', async () => {}],
        ['/register', 'register: invite step', async () => {}],
        [
          `/register/${e2e.clubCode}`,
          'register: form',
          async () => {
            await expect(page.getByLabel('username')).toBeVisible()
          },
        ],
        ['/waitlist', 'waitlist', async () => {}],
        ['/forgot-password', 'forgot password', async () => {}],
        [
          '/password-reset/not-a-token',
          'reset password: invalid link',
          async () => {
            await expect(
              page.getByText('invalid password reset token.', { exact: true }),
            ).toBeVisible()
            // The toast that says it too comes a moment later, its code loaded apart: axe must
            // not read its colours mid-fade.
            await expect(page.getByText('Invalid reset token', { exact: true })).toBeVisible()
          },
        ],
        [
          '/about',
          'about',
          async () => {
            await expect(page.getByRole('link', { name: /@/ })).toBeVisible()
          },
        ],
        [
          '/qr-invite',
          'QR invite',
          async () => {
            await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible()
          },
        ],
        [
          '/confirm-email/1/bad',
          'confirm e-mail',
          async () => {
            await expect(page.getByRole('alert')).toBeVisible()
          },
        ],
      ]
      for (const [path, what, ready] of screens) {
        await page.goto(path)
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        await ready()
        await expectNoAxeViolations(page, `${what} at ${width} px`)
      }
    })

    test(`axe finds no violations on the forms with their messages at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 })
      // Login and waitlist with their messages.
      await page.goto('/login')
      await page.getByRole('button', { name: '[ login ]' }).click()
      await expect(page.getByText('Username is required')).toBeVisible()
      await expectNoAxeViolations(page, `login with errors at ${width} px`)
      await page.goto('/waitlist')
      await page.getByLabel('email').fill('nope')
      await page.getByRole('button', { name: '[ join the waitlist ]' }).click()
      await expect(page.getByText('Please enter a valid email address')).toBeVisible()
      await expectNoAxeViolations(page, `waitlist with errors at ${width} px`)
      if (width < 640) {
        // A visitor's small-screen menu, open: WCAG rules only, the menu alone, as for the
        // member menu below.
        await page.getByRole('banner').getByRole('button', { name: '[ menu ]' }).click()
        await expect(page.getByRole('menuitem', { name: '[ register ]' })).toBeVisible()
        await expectNoAxeViolations(page, `visitor menu at ${width} px`, {
          wcagOnly: true,
          within: '[role="menu"]',
        })
        await page.keyboard.press('Escape')
      }

      // The register form with its messages, and the code of conduct dialog.
      await page.goto(`/register/${e2e.clubCode}`)
      await page.getByLabel('username').fill('Not Valid')
      await page.getByLabel('email').fill('nope')
      await page.getByLabel('city').fill('x')
      await page.getByLabel('how did you find us?').fill('y')
      await page.getByLabel('password', { exact: true }).fill('short')
      await page.getByLabel('confirm password').fill('other')
      await page.getByRole('button', { name: '[ create account ]' }).click()
      await expect(page.getByText('Please enter a valid city')).toBeVisible()
      await expectNoAxeViolations(page, `register form with errors at ${width} px`)
      await fillRegisterForm(page, newPerson())
      await page.getByRole('button', { name: '[ create account ]' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
      await expectNoAxeViolations(page, `code of conduct at ${width} px`)
      await page.keyboard.press('Escape')
    })

    test(`axe finds no violations on a password reset and a member's menu at ${width} px`, async ({
      page,
      playwright,
    }) => {
      await page.setViewportSize({ width, height: 900 })
      // Forgot password once sent, and a reset link that works.
      const member = await createMember(
        await playwright.request.newContext({ baseURL: e2e.baseUrl }),
      )
      await page.goto('/forgot-password')
      await page.getByLabel('email').fill(member.email)
      await page.getByRole('button', { name: '[ send reset link ]' }).click()
      await expect(page.getByText(/is on its way/)).toBeVisible()
      // The toast that says so too comes with the toaster's own code, a moment later.
      await expect(toastWith(page, 'Reset link sent')).toBeVisible()
      await expectNoAxeViolations(page, `forgot password, sent, at ${width} px`)
      const mail = await waitForMail((m) => m.to.includes(member.email) && /Reset/.test(m.subject))
      await page.goto(new RegExp(`${e2e.baseUrl}/password-reset/[\\w.-]+`).exec(mail.text)![0])
      await expect(page.getByLabel('new password')).toBeVisible()
      await expectNoAxeViolations(page, `reset password form at ${width} px`)

      // A member's header, then with its menu open. The open menu is checked against the WCAG
      // rules: Radix portals it to the end of <body>, outside the landmarks, which only the
      // 'region' best-practice rule minds. The menu alone: the page under it was checked just
      // before, and a card it happens to cover would read as a target too small to press.
      await logIn(page, member.username, member.password)
      await expectNoAxeViolations(page, `member header at ${width} px`)
      await page
        .getByRole('banner')
        .getByRole('button', { name: new RegExp(member.username) })
        .click()
      await expect(page.getByRole('menuitem', { name: '[ invite friends ]' })).toBeVisible()
      await expectNoAxeViolations(page, `member menu at ${width} px`, {
        wcagOnly: true,
        within: '[role="menu"]',
      })
    })
  }
})
