import { e2e } from './env'
import { expect, test } from './fixtures'

test.describe('page shell', () => {
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

  test('an unknown path shows the not-found page, whose link goes home', async ({ page }) => {
    const res = await page.goto('/no/such/page')
    expect(res?.status()).toBe(200)
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible()
    await page.getByRole('link', { name: 'Go Home' }).click()
    await expect(page).toHaveURL(/\/home$/)
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
