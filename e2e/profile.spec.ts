import { e2e } from './env'
import {
  createMember,
  DEMO_PASSWORD,
  expect,
  expectNoAxeViolations,
  logIn,
  useDemoServer,
  test,
} from './fixtures'

/** Where to save screenshots of the screens checked here; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

const DEMO_PORT = e2e.ownServerPort.profile
test.use({ baseURL: `http://127.0.0.1:${DEMO_PORT}` })
useDemoServer(DEMO_PORT)

test.describe('profile', () => {
  test('a member sees their cred, stats, upcoming and past podclubs', async ({ page }) => {
    await logIn(page, 'jon.b', DEMO_PASSWORD)
    const api = (await (await page.request.get('/api/v1/profile/')).json()) as {
      data: { user: { profile: { cred: number; completed_podclub_count: number } } }
    }
    const { cred, completed_podclub_count: completed } = api.data.user.profile
    await page.getByRole('button', { name: 'jon.b' }).click()
    await page.getByRole('menuitem', { name: '[ profile ]' }).click()
    await expect(page).toHaveURL(/\/profile$/)

    await expect(page.getByText(`[${cred}] jon.b`)).toBeVisible()
    await expect(page.getByText('jonb@example.com')).toBeVisible()
    await expect(page.getByText('city: Queens')).toBeVisible()
    await expect(page.getByText(/member since \w+ \d+, \d{4}/)).toBeVisible()
    const stats = page.getByRole('definition')
    await expect(page.getByRole('term')).toHaveText([
      'podclubs attended',
      'podclubs hosted',
      'cred',
    ])
    await expect(stats.nth(0)).toHaveText(String(completed))
    await expect(stats.nth(2)).toHaveText(String(cred))
    expect(cred).toBeGreaterThan(0)

    const upcoming = page.getByRole('region', { name: 'upcoming podclubs' })
    await expect(upcoming.getByRole('heading', { name: 'Price of a Free Lunch' })).toBeVisible()
    await expect(upcoming.getByText(/ @ \d+:\d\d (AM|PM) E[SD]T/).first()).toBeVisible()
    const past = page.getByRole('region', { name: 'past podclubs' })
    await expect(past.getByRole('link', { name: /view discussion/ }).first()).toBeVisible()
    // The list agrees with the counts: as many 'attended' and 'hosted' as they say.
    const hosted = Number(await stats.nth(1).textContent())
    await expect(past.getByRole('listitem').filter({ hasText: '· attended' })).toHaveCount(
      completed,
    )
    await expect(past.getByRole('listitem').filter({ hasText: '· hosted' })).toHaveCount(hosted)

    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expectNoAxeViolations(page, `the profile at ${width}px`)
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/profile-${width}.png`, fullPage: true })
    }

    await past.getByRole('link', { name: 'view discussion of The Cathedral' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'The Cathedral' })).toBeVisible()
    await expect(page.getByRole('heading', { name: /hindsights \(\d+ \/ 20\)/ })).toBeVisible()
  })

  test('a new member sees the empty states and can go browse', async ({ page, request }) => {
    const member = await createMember(request)
    await logIn(page, member.username, member.password, '/profile')
    await expect(page.getByText(`[0] ${member.username}`)).toBeVisible()
    await expect(page.getByText('no upcoming podclubs, go sign up for one!')).toBeVisible()
    await expect(
      page.getByText(
        "no past podclubs, your podclub history will appear here after you've participated in your first discussion",
      ),
    ).toBeVisible()
    await expectNoAxeViolations(page, 'the empty profile')
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/profile-empty-1280.png`, fullPage: true })
    await page.getByRole('link', { name: 'browse podclubs' }).click()
    await expect(page).toHaveURL(/\/home\?skipSplash=true$/)
  })
})
