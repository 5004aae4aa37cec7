import type { Browser, BrowserContextOptions } from '@playwright/test'
import { apiAs, createPodclub, DEMO_PASSWORD, expect, logInRequest, test } from './fixtures'

/**
 * The first screen the server renders (docs/decisions/023): its content is in the HTML, before and
 * without the page's code, and the browser hydrates it without rendering it again (any hydration
 * error fails the spec through the fixture's page-error check).
 */

/** A context that runs no script: what it shows, the server's HTML shows. */
function withoutScripts(browser: Browser, storageState?: BrowserContextOptions['storageState']) {
  return browser.newContext({ javaScriptEnabled: false, storageState })
}

test.describe('server-rendered pages', () => {
  test('a visitor gets the feed, a podclub, about and login as HTML, titled, before any script', async ({
    browser,
    playwright,
  }) => {
    // A `$&` is a replacement pattern and `</script>` would end the page's state element: both
    // must arrive as the text they are.
    const podclub = await createPodclub(playwright, {
      title: `Costs $& Benefits </script><b>bold</b> ${Date.now()}`,
    })
    const context = await withoutScripts(browser)
    const page = await context.newPage()

    await page.goto('/home')
    await expect(page).toHaveTitle('home · podclub')
    const feed = page.getByRole('list', { name: 'Upcoming podclubs' })
    await expect(feed.getByRole('article', { name: podclub.title })).toBeVisible()
    await expect(page.getByRole('link', { name: '[ join the club ]' }).first()).toBeVisible()
    await expect(page.getByRole('banner').getByRole('link', { name: '[ login ]' })).toBeVisible()

    await page.goto(`/podclubs/${podclub.id}`)
    await expect(page).toHaveTitle(`${podclub.title} · podclub`)
    await expect(page.getByRole('heading', { level: 1, name: podclub.title })).toBeVisible()
    await expect(page.getByRole('link', { name: '[ login to register ]' })).toBeVisible()
    await expect(page.getByRole('main').locator('b')).toHaveCount(0)

    await page.goto('/about')
    await expect(page).toHaveTitle('about · podclub')
    await expect(page.getByRole('heading', { level: 1, name: 'about' })).toBeVisible()

    await page.goto('/login')
    await expect(page.getByLabel('Username')).toBeVisible()
    await expect(page.getByLabel('Password')).toBeVisible()
    await context.close()
  })

  test("a member's pages are rendered for them, and a visitors' page sends them home", async ({
    browser,
    page,
  }) => {
    await logInRequest(page.request, 'maya.r', DEMO_PASSWORD)
    const session = await page.context().storageState()
    const context = await withoutScripts(browser, session)
    const member = await context.newPage()

    await member.goto('/home')
    const header = member.getByRole('banner')
    await expect(header.getByRole('link', { name: '[ login ]' })).toHaveCount(0)
    await expect(member.getByRole('link', { name: '[ join the club ]' })).toHaveCount(0)
    await expect(member.getByRole('list', { name: 'Upcoming podclubs' })).toBeVisible()

    const answer = await member.request.get('/login', { maxRedirects: 0 })
    expect(answer.status()).toBe(302)
    expect(answer.headers()['location']).toBe('/home')
    await context.close()
  })

  test('a page the server rendered works once its code has run: a visitor logs in from it', async ({
    page,
  }) => {
    const answer = await page.goto('/login')
    expect(await answer?.text()).toContain('id="server-state"')
    // The CSRF cookie came with the page: the first write needs no extra round trip.
    const cookies = await page.context().cookies()
    expect(cookies.map((c) => c.name)).toContain('csrftoken')
    await page.getByLabel('Username').fill('jon.b')
    await page.getByLabel('Password').fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: /log ?in/i }).click()
    await expect(page).toHaveURL(/\/home$/)
    await expect(page.getByRole('banner').getByRole('link', { name: '[ login ]' })).toHaveCount(0)
  })

  test('a page that does not exist answers 404 with the not-found page; a screen the browser renders is the shell', async ({
    request,
  }) => {
    for (const path of ['/no-such-page', '/podclubs/99999', '/podclubs/abc']) {
      const answer = await request.get(path)
      expect(answer.status(), path).toBe(404)
      expect(await answer.text(), path).toContain('Page Not Found')
    }
    for (const path of ['/', '/profile']) {
      expect(await (await request.get(path)).text(), path).toContain('id="server-state"')
    }
    const html = await (await request.get('/propose')).text()
    expect(html).toContain('<div id="root"></div>')
  })

  test("a page kept for every visitor, and a member's own, show a seat the moment it is taken", async ({
    browser,
    playwright,
    request,
  }) => {
    const podclub = await createPodclub(playwright, { title: `Kept and fresh ${Date.now()}` })
    const path = `/podclubs/${podclub.id}`
    // Kept: two visitors in a row get the very same page, its data read once (while no seat
    // changes elsewhere in the run between them).
    await expect
      .poll(async () => {
        const [first, second] = [await request.get(path), await request.get(path)]
        return (await first.text()) === (await second.text())
      })
      .toBe(true)
    const visitor = await (await withoutScripts(browser)).newPage()
    await visitor.goto(path)
    await expect(visitor.getByText('9 seats left')).toBeVisible()

    const maya = await apiAs(playwright, 'maya.r', DEMO_PASSWORD)
    const member = await (
      await withoutScripts(browser, await maya.request.storageState())
    ).newPage()
    await member.goto(path)
    await expect(member.getByRole('button', { name: '[ register ]' })).toBeVisible()

    const taken = await maya.post(`/register/${podclub.id}/`)
    expect(taken.status(), await taken.text()).toBe(200)
    await visitor.goto(path)
    await expect(visitor.getByText('8 seats left')).toBeVisible()
    await visitor.goto('/home')
    const card = visitor
      .getByRole('list', { name: 'Upcoming podclubs' })
      .getByRole('article', { name: podclub.title })
    await expect(card).toContainText('8 seats left')
    await member.goto(path)
    await expect(member.getByText("You're registered, see you there!")).toBeVisible()
    await visitor.context().close()
    await member.context().close()
    await maya.request.dispose()
  })

  test('without scripts, the buttons read as not available and a note says why', async ({
    browser,
    page,
  }) => {
    await logInRequest(page.request, 'maya.r', DEMO_PASSWORD)
    const context = await withoutScripts(browser, await page.context().storageState())
    const member = await context.newPage()
    await member.goto('/home')
    const button = member.getByRole('main').getByRole('button').first()
    await expect(button).toHaveCSS('pointer-events', 'none')
    await expect(button).toHaveCSS('opacity', '0.5')
    await expect(member.getByText('podclub needs JavaScript to log in')).toBeVisible()
    await context.close()
  })
})
