import { e2e } from './env'
import { createMember, createPodclub, expect, expectNoAxeViolations, logIn, test } from './fixtures'

/** Where to save screenshots for a person to look at; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

test.describe('page shell', () => {
  // Short journeys that share nothing, and the last file in the run's order: spread over the
  // workers, they end together instead of in one worker alone.
  test.describe.configure({ mode: 'parallel' })

  test('a visitor sees the header, footer and the way in, with no third-party request', async ({
    page,
  }) => {
    const foreign: string[] = []
    page.on('request', (req) => {
      if (!req.url().startsWith(e2e.baseUrl) && !req.url().startsWith('data:'))
        foreign.push(req.url())
    })
    const res = await page.goto('/home')
    // A strict policy, and the fixture fails the spec on any violation it would log.
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'")
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: 'podclub.' })).toHaveAttribute('href', '/home')
    await expect(header.getByRole('link', { name: '[ login ]' })).toBeVisible()
    await expect(header.getByRole('link', { name: '[ register ]' })).toBeVisible()
    await expect(page.getByRole('contentinfo')).toContainText('[ HUMANS TALKING WITH HUMANS ]')
    await expect(header.getByRole('link', { name: '[ control panel ]' })).toHaveCount(0)
    expect(foreign).toEqual([])
  })

  test('no screen trips the content security policy, not even a probe the console would not show', async ({
    page,
  }) => {
    const cdp = await page.context().newCDPSession(page)
    const issues: string[] = []
    cdp.on('Audits.issueAdded', ({ issue }) => {
      if (issue.code === 'ContentSecurityPolicyIssue') issues.push(JSON.stringify(issue.details))
    })
    await cdp.send('Audits.enable')
    // Screens whose forms load the contract's schemas, and the feed and a podclub's page.
    for (const path of ['/about', '/login', '/register/e2eclub', '/home', '/podclubs/1']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      // A form's schemas load with the screen; parse one the way a submit would.
      await page.waitForLoadState('networkidle')
    }
    expect(issues).toEqual([])
  })

  test('the feed and a podclub page keep their layout while their data loads on a slow network', async ({
    page,
    playwright,
  }) => {
    const podclub = await createPodclub(playwright, { title: `Steady Ground ${Date.now()}` })
    await page.setViewportSize({ width: 375, height: 667 })
    // What Lighthouse counts: every shift not caused by input, from the start of the load.
    await page.addInitScript(() => {
      const w = window as unknown as { shifted: number }
      w.shifted = 0
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as {
          value: number
          hadRecentInput: boolean
        }[])
          if (!entry.hadRecentInput) w.shifted += entry.value
      }).observe({ type: 'layout-shift', buffered: true })
    })
    // A phone's network: the page's own data comes a moment after it starts.
    await page.route(/\/api\/v1\/(all_upcoming_podclubs|podclubs\/\d+)\/$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800))
      await route.continue()
    })
    const shifted = () => page.evaluate(() => (window as unknown as { shifted: number }).shifted)
    await page.goto('/home')
    await expect(page.getByRole('article', { name: podclub.title })).toBeAttached()
    expect(await shifted()).toBeLessThan(0.05)
    await page.goto(`/podclubs/${podclub.id}`)
    await expect(page.getByRole('heading', { level: 1, name: podclub.title })).toBeVisible()
    expect(await shifted()).toBeLessThan(0.05)
  })

  test('an unknown path shows the not-found page, whose link goes home', async ({ page }) => {
    const res = await page.goto('/no/such/page')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible()
    await page.getByRole('link', { name: 'Go Home' }).click()
    await expect(page).toHaveURL(/\/home$/)
  })

  for (const path of ['/podclubs/abc', '/podclubs/99999', '/polls/abc/SOMECODE', '/polls/99999']) {
    test(`${path} (no such podclub or poll) shows the not-found page, whose link goes home`, async ({
      page,
    }) => {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
      await expect(page.getByRole('main')).not.toContainText('Invalid input')
      await expect(page.getByRole('main')).not.toContainText('Failed to')
      await page.getByRole('link', { name: 'Go Home' }).click()
      await expect(page).toHaveURL(/\/home$/)
    })
  }

  test('the not-found page says what happened and what to do next, at phone and desktop width', async ({
    page,
  }) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto('/podclubs/abc')
      const main = page.getByRole('main')
      await expect(main.getByRole('heading', { name: 'Page Not Found' })).toBeVisible()
      await expect(main).toContainText('There is nothing at this address.')
      await expect(main.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/home')
      await expectNoAxeViolations(page, `the not-found page at ${width} px`)
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/not-found-${width}.png`, fullPage: true })
    }
  })

  test('/polls without a poll says where a poll comes from, with the way home', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/polls')
    await expect(page.getByRole('heading', { level: 1, name: 'No Poll Selected' })).toBeVisible()
    await expect(page.getByRole('main')).toContainText('Open the poll link from your vote-code')
    await expectNoAxeViolations(page, '/polls at 375 px')
    await page.getByRole('main').getByRole('link', { name: 'Go Home' }).click()
    await expect(page).toHaveURL(/\/home$/)
  })

  test("on a phone the member's menu shows their username, whole", async ({ page, playwright }) => {
    const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const member = await createMember(request)
    await page.setViewportSize({ width: 375, height: 740 })
    await logIn(page, member.username, member.password)
    const menu = page.getByRole('banner').getByRole('button', { name: member.username })
    const name = menu.getByText(member.username, { exact: true })
    await expect(name).toBeVisible()
    await expect(name).toBeInViewport({ ratio: 1 })
    // Not cut short by an ellipsis either.
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await expectNoAxeViolations(page, 'home with the member menu at 375 px')
    await menu.click()
    await expect(page.getByRole('menuitem', { name: '[ profile ]' })).toBeVisible()
  })

  test('guarded screens send a visitor home', async ({ page }) => {
    for (const path of ['/profile', '/propose', '/controlpanel']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/home$/)
    }
  })

  test("rewrites an old '#/signup/CODE' link to the register screen", async ({ page }) => {
    await page.goto('/#/signup/OLDCODE42')
    await expect(page).toHaveURL(/\/register\/OLDCODE42$/)
  })

  test('robots.txt is a robots file, not the page', async ({ request }) => {
    const res = await request.get('/robots.txt')
    expect(res.status()).toBe(200)
    expect(res.headers()['content-type']).toContain('text/plain')
    expect(await res.text()).toContain('Disallow: /api/')
  })

  test('unknown API paths answer 404 JSON, not the page', async ({ request }) => {
    const res = await request.get('/api/v1/not-a-call/')
    expect(res.status()).toBe(404)
    expect(await res.json()).toEqual({ detail: 'Resource not found', code: 'NOT_FOUND' })
  })

  test('on a phone the visitor links sit in a [ menu ]', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 })
    await page.goto('/home')
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: '[ login ]' })).toBeHidden()
    await header.getByRole('button', { name: '[ menu ]' }).click()
    await page.getByRole('menuitem', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(/\/login$/)
    // Nothing overflows sideways at phone width.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
  })
})
