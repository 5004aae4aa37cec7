import type { Page } from '@playwright/test'
import { e2e } from './env'
import {
  createMember,
  expect,
  expectNoAxeViolations,
  logIn,
  openInPageRouter,
  test,
  toastWith,
  waitForMail,
} from './fixtures'

const SHOTS = process.env.E2E_SCREENSHOTS_DIR

async function screenshot(page: Page, name: string) {
  if (SHOTS)
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: name.includes('full') })
}

test.describe('the splash', () => {
  test('types the wordmark, shows the tagline, and leaves on a click', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    // Record every state of the typed wordmark from the first paint on.
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { typed: string[] }).typed = seen
      new MutationObserver(() => {
        const text = document.querySelector('[data-wordmark]')?.textContent
        if (text !== undefined && text !== null && seen.at(-1) !== text) seen.push(text)
      }).observe(document, { subtree: true, childList: true, characterData: true })
    })
    await page.goto('/')
    const splash = page.getByTestId('splash')
    await expect(splash).toBeVisible()
    await expect(splash.getByText('no bots. no ai. no bs.')).toHaveCSS('opacity', '1', {
      timeout: 5_000,
    })
    await expect(splash.locator('[data-wordmark]')).toHaveText('podclub')
    const typed = await page.evaluate(() => (window as unknown as { typed: string[] }).typed)
    expect(typed.filter(Boolean)).toEqual(['p', 'po', 'pod', 'podc', 'podcl', 'podclu', 'podclub'])
    await expectNoAxeViolations(page, 'the splash, typed')
    // Page scrolling is locked while it shows.
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('hidden')
    await screenshot(page, 'splash-375')
    await splash.getByRole('button', { name: 'this way in' }).click()
    await expect(splash).toHaveCount(0)
    // The page scrolls again once the overlay's code has let go of it.
    await expect.poll(() => page.evaluate(() => document.documentElement.style.overflow)).toBe('')
    await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()
  })

  test('leaves on a wheel down', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByTestId('splash')).toBeVisible()
    await page.mouse.move(200, 200)
    await page.mouse.wheel(0, 120)
    await expect(page.getByTestId('splash')).toHaveCount(0)
  })

  test('leaves on a swipe up of 100 or more, counted afresh when the finger turns back', async ({
    page,
  }) => {
    await page.goto('/')
    const splash = page.getByTestId('splash')
    await expect(splash).toBeVisible()
    const touch = (type: string, y: number) =>
      page.evaluate(
        ([type, y]) => {
          const t = new Touch({
            identifier: 1,
            target: document.body,
            clientX: 100,
            clientY: y as number,
          })
          window.dispatchEvent(
            new TouchEvent(type as string, {
              touches: type === 'touchend' ? [] : [t],
              bubbles: true,
            }),
          )
        },
        [type, y] as const,
      )
    await touch('touchstart', 500)
    await touch('touchmove', 440) // up 60
    await touch('touchmove', 470) // back down: the count starts over
    await touch('touchmove', 400) // up 70 since the turn: not enough
    await expect(splash).toHaveAttribute('data-phase', 'showing')
    await touch('touchmove', 360) // up 110 in all since the turn
    await expect(splash).toHaveCount(0)
  })

  test('never keeps the page from a keyboard user, and /home skips it', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByTestId('splash')).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(page.getByTestId('splash')).toHaveCount(0)
    await page.goto('/?skipSplash=true')
    await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()
    await expect(page.getByTestId('splash')).toHaveCount(0)
  })
})

test.describe('the splash, once a visit', () => {
  test('back to / after /home, or a reload, shows the page at once; a new tab plays it again', async ({
    page,
    context,
  }) => {
    await page.goto('/')
    const splash = page.getByTestId('splash')
    await splash.getByRole('button', { name: 'this way in' }).click()
    await expect(splash).toHaveCount(0)
    await page.getByRole('banner').getByRole('link', { name: 'podclub.' }).click()
    await expect(page).toHaveURL(/\/home$/)
    await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()

    // Notes whether the splash shows up at all on the way back, even for a moment.
    await page.evaluate(() => {
      const seen = { splash: false }
      ;(window as unknown as { seen: typeof seen }).seen = seen
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="splash"]')) seen.splash = true
      }).observe(document.body, { subtree: true, childList: true })
    })
    await page.goBack()
    await expect(page).toHaveURL(`${e2e.baseUrl}/`)
    const feed = page.getByRole('list', { name: 'Upcoming podclubs' })
    await expect(feed).toBeVisible()
    await expect(splash).toHaveCount(0)
    expect(
      await page.evaluate(() => (window as unknown as { seen: { splash: boolean } }).seen),
    ).toEqual({ splash: false })
    // The content is there in full at once, not fading in behind a splash.
    const opacities = await feed.evaluate((list) => {
      const seen: string[] = []
      for (let el: Element | null = list; el; el = el.parentElement) {
        seen.push(getComputedStyle(el).opacity)
      }
      return seen
    })
    expect(opacities.every((o) => o === '1')).toBe(true)

    // A reload of the same tab is the same visit.
    await page.reload()
    await expect(feed).toBeVisible()
    await expect(splash).toHaveCount(0)

    // A new tab is a new visit.
    const other = await context.newPage()
    await other.goto('/')
    await expect(other.getByTestId('splash')).toBeVisible()
    await other.close()
  })
})

test.describe('the home feed', () => {
  test('a member registers from a card, sees the seat label change, and cancels', async ({
    page,
    playwright,
  }) => {
    const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const member = await createMember(request)
    await logIn(page, member.username, member.password)
    const card = page.getByRole('article').filter({ hasText: '4 seats left' }).first()
    const title = await card.getByRole('heading').innerText()
    const byTitle = page.getByRole('article', { name: title })
    await byTitle.getByRole('button', { name: '[ register ]' }).click()
    await expect(toastWith(page, 'Successfully registered for the podclub')).toBeVisible()
    await expect(byTitle).toContainText('3 seats left')
    await expect(byTitle).toContainText("You're registered, see you there!")
    const share = byTitle.getByRole('link', { name: '[ share to x ]' })
    expect(decodeURIComponent((await share.getAttribute('href'))!)).toContain(e2e.clubCode)

    await byTitle.getByRole('button', { name: '[ cancel ]' }).click()
    await expect(toastWith(page, 'Successfully canceled registration')).toBeVisible()
    await expect(byTitle).toContainText('4 seats left')
    await expect(byTitle.getByRole('button', { name: '[ register ]' })).toBeEnabled()
  })

  test('the error view retries', async ({ page }) => {
    let failures = 1
    await page.route('**/api/v1/all_upcoming_podclubs/', async (route) => {
      if (failures-- > 0) {
        await route.fulfill({
          status: 500,
          json: { detail: 'Internal server error. Please try again later.' },
        })
      } else {
        await route.continue()
      }
    })
    // The first answer fails, and so do the query's own retries of a 500.
    failures = 3
    await openInPageRouter(page, '/home')
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to load podclubs' })
    await expect(alert).toContainText('Failed to load podclubs. Please try again later.', {
      timeout: 15_000,
    })
    failures = 0
    await alert.getByRole('button', { name: 'Try Again' }).click()
    await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()
  })

  test('the error view shows within 3 seconds when the feed keeps failing', async ({ page }) => {
    let firstAskedAt = 0
    await page.route('**/api/v1/all_upcoming_podclubs/', (route) => {
      firstAskedAt ||= Date.now()
      return route.fulfill({
        status: 500,
        json: { detail: 'Internal server error. Please try again later.' },
      })
    })
    await openInPageRouter(page, '/home')
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to load podclubs' })
    await expect(alert).toBeVisible({ timeout: 15_000 })
    expect(Date.now() - firstAskedAt).toBeLessThan(3_000)
    await expect(alert.getByRole('button', { name: 'Try Again' })).toBeEnabled()
  })

  test('with nothing scheduled the feed says so and offers to propose one', async ({
    page,
    playwright,
  }) => {
    await page.route('**/api/v1/all_upcoming_podclubs/', (route) =>
      route.fulfill({ status: 200, json: { data: [] } }),
    )
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await openInPageRouter(page, '/home')
    const empty = page.getByRole('region', { name: 'Nothing is scheduled yet' })
    await expect(empty).toContainText('No podclub is coming up right now.')
    // A visitor is shown the way in first: proposing is for members.
    await expect(empty.getByRole('link', { name: '[ login to propose one ]' })).toHaveAttribute(
      'href',
      '/login',
    )

    const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const member = await createMember(request)
    await logIn(page, member.username, member.password, '/waitlist')
    await openInPageRouter(page, '/home')
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expect(empty).toBeVisible()
      await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()
      await expectNoAxeViolations(page, `the empty feed at ${width} px`)
      await screenshot(page, `home-empty-${width}`)
    }
    await empty.getByRole('link', { name: '[ propose a podclub ]' }).click()
    await expect(page).toHaveURL(/\/propose$/)
  })

  test('the suggest and invite forms send and say so; the invite arrives by SMTP', async ({
    page,
    playwright,
  }) => {
    const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const member = await createMember(request)
    await logIn(page, member.username, member.password)

    const link = page.getByLabel('Podcast episode link')
    await link.fill('not a link')
    await expect(page.getByText('Please enter a valid podcast episode URL')).toBeVisible()
    await link.fill('https://www.thisamericanlife.org/1/new-beginnings')
    await page.getByLabel('Why this one? (optional)').fill('The best first act of any episode.')
    await page.getByRole('button', { name: '[ suggest ]' }).click()
    await expect(toastWith(page, 'Podcast Suggested!')).toContainText(
      "Thanks for the suggestion! We'll review it and create a podclub soon.",
    )
    await expect(link).toHaveValue('')

    const friend = `friend.${Date.now()}@example.com`
    await page.getByLabel('Their e-mail').fill(friend)
    await page.getByLabel('A note from you (optional)').fill('Come argue about Radiolab with us.')
    await page.getByRole('button', { name: '[ send invite ]' }).click()
    await expect(toastWith(page, 'Invitation Sent')).toContainText(
      `Successfully sent invite to ${friend}`,
    )
    await expect(page.getByLabel('Their e-mail')).toHaveValue('')
    const mail = await waitForMail((m) => m.to.includes(friend))
    expect(mail.subject).toBe(`${member.username} invited you to podclub`)
    expect(mail.text).toContain('Come argue about Radiolab with us.')
    expect(mail.text).toMatch(new RegExp(`${e2e.baseUrl}/register/welcome-`))
  })
})

test.describe('accessibility and looks', () => {
  for (const width of [375, 768, 1280]) {
    test(`/home at ${width} px, logged out and logged in, has no axe violations`, async ({
      page,
      playwright,
    }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' })
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/home')
      await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()
      await expect(page.getByText('pods discussed')).toBeVisible()
      await expectNoAxeViolations(page, `/home for a visitor at ${width} px`)
      await screenshot(page, `home-visitor-${width}`)
      await screenshot(page, `home-visitor-${width}-full`)

      const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
      const member = await createMember(request)
      await logIn(page, member.username, member.password)
      await expect(page.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()
      await expectNoAxeViolations(page, `/home for a member at ${width} px`)
      await screenshot(page, `home-member-${width}`)
      await screenshot(page, `home-member-${width}-full`)
      if (width !== 375) {
        await page.goto('/')
        await expect(page.getByTestId('splash').getByText('no bots. no ai. no bs.')).toBeVisible()
        await screenshot(page, `splash-${width}`)
      }
    })
  }
})
