import type { Page } from '@playwright/test'
import { e2e } from './env'
import {
  DEMO_PASSWORD,
  expect,
  expectNoAxeViolations,
  logIn,
  logInRequest,
  openInPageRouter,
  useDemoServer,
  test,
  toasts,
} from './fixtures'

/** Where to save screenshots of the screens checked here; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

// The demo seed's completed podclubs (attendees, hindsights, a chat log) on a server of its own.
const DEMO_PORT = e2e.ownServerPort.detail
test.use({ baseURL: `http://127.0.0.1:${DEMO_PORT}` })
useDemoServer(DEMO_PORT)

type ProfileItem = { id: number; episode_title: string }
/** The id of a podclub in the logged-in member's profile, by its episode title. */
async function podclubIdOf(page: Page, title: string) {
  const res = await page.request.get('/api/v1/profile/')
  const { data } = (await res.json()) as {
    data: { upcoming_podclubs: ProfileItem[]; past_podclubs: ProfileItem[] }
  }
  const found = [...data.upcoming_podclubs, ...data.past_podclubs].find(
    (p) => p.episode_title === title,
  )
  if (!found) throw new Error(`no podclub "${title}" in the profile`)
  return found.id
}

async function atWidths(page: Page, name: string, check: () => Promise<void>) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await check()
    await expectNoAxeViolations(page, `${name} at ${width}px`)
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true })
  }
}

test.describe('podclub detail', () => {
  test('an attendee reads the discussion of a completed podclub and posts a hindsight', async ({
    page,
  }) => {
    await logInRequest(page.request, 'jon.b', DEMO_PASSWORD)
    const id = await podclubIdOf(page, 'The Cathedral')
    await page.goto(`/podclubs/${id}`)

    await expect(page.getByRole('heading', { level: 1, name: 'The Cathedral' })).toBeVisible()
    const hindsights = page.getByRole('region', { name: 'hindsights list' })
    await expect(page.getByRole('heading', { name: 'hindsights (2 / 20)' })).toBeVisible()
    await expect(
      hindsights.getByRole('link', { name: 'https://example.com/reading-list' }),
    ).toBeVisible()
    // The chat log: ' to Everyone' stripped, the URL line joined to the entry before it.
    const chat = page.getByRole('region', { name: 'zoom chat log entries' })
    await expect(chat.getByRole('listitem')).toHaveCount(3)
    await expect(chat).not.toContainText('to Everyone')
    await expect(chat.getByRole('listitem').nth(1)).toContainText('https://example.com/transcript')
    const box = await chat.boundingBox()
    expect(Math.round(box!.height)).toBe(300)
    // Attendees: the podmeister first with the badge, cred in brackets.
    const attendees = page.getByRole('region', { name: /member\(s\) attended/ })
    await expect(attendees.getByRole('heading')).toHaveText('3 member(s) attended')
    // Over: who attended, not the seats left.
    const details = page.getByRole('region', { name: 'details' })
    await expect(details).not.toContainText('seats available')
    await expect(details.getByText('attended', { exact: true })).toBeVisible()
    await expect(details).toContainText('maya.r (podmeister), ')
    await expect(attendees.getByRole('listitem').first()).toContainText('maya.r')
    await expect(attendees.getByRole('listitem').first()).toContainText('podmeister')
    await expect(attendees.getByRole('listitem').first()).toContainText(/\[\d+\]/)

    await atWidths(page, 'detail-completed', async () => {
      await expect(page.getByRole('heading', { name: 'hindsights (2 / 20)' })).toBeVisible()
    })

    // On a phone: the toast after posting covers neither the field nor the button, and a tap
    // puts it away.
    await page.setViewportSize({ width: 375, height: 740 })
    const field = page.getByLabel('your hindsight')
    const post = page.getByRole('button', { name: '[ post hindsight ]' })
    await expect(post).toBeDisabled()
    await field.fill('   ')
    await expect(post).toBeDisabled()
    const long = `${Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')} https://example.com/more`
    await field.fill(long)
    // The button at the foot of the screen, where a thumb reaches it.
    await post.evaluate((el) => el.scrollIntoView({ block: 'end' }))
    await post.click()
    const posted = page.getByText('Hindsight submitted successfully', { exact: true })
    await expect(posted).toBeVisible()
    const toastBox = (await page.getByRole('listitem').filter({ has: posted }).boundingBox())!
    for (const target of [post, field]) {
      const box = (await target.boundingBox())!
      const overlaps =
        box.y < toastBox.y + toastBox.height &&
        toastBox.y < box.y + box.height &&
        box.x < toastBox.x + toastBox.width &&
        toastBox.x < box.x + box.width
      expect(overlaps, 'the toast covers the hindsight form').toBe(false)
    }
    await posted.click()
    await expect(posted).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'hindsights (3 / 20)' })).toBeVisible()
    await expect(field).toHaveValue('')
    // Over 30 words: cut, with the toggle.
    const mine = hindsights.getByRole('listitem').last()
    await expect(mine).toContainText('jon.b')
    await expect(mine).not.toContainText('word35')
    await mine.getByRole('button', { name: '[ read more ]' }).click()
    await expect(mine).toContainText('word35')
    await expect(mine.getByRole('link', { name: 'https://example.com/more' })).toBeVisible()
    await mine.getByRole('button', { name: '[ show less ]' }).click()
    await expect(mine).not.toContainText('word35')
  })

  test('a logged-out attendee opening a completed podclub logs in and comes back to it', async ({
    page,
  }) => {
    await logInRequest(page.request, 'jon.b', DEMO_PASSWORD)
    const id = await podclubIdOf(page, 'The Cathedral')
    await page.context().clearCookies()
    await page.setViewportSize({ width: 375, height: 740 })
    // From an e-mail: the podclub's link, logged out.
    await page.goto(`/podclubs/${id}`)
    await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fpodclubs%2F${id}$`))
    await expect(page.getByRole('heading', { level: 1, name: 'login' })).toBeVisible()
    await expect(toasts(page)).toHaveCount(1)
    await expect(
      toasts(page).getByText('Log in to see this discussion', { exact: true }),
    ).toBeVisible()
    await expect(page.getByText('You are not a participant of this podclub')).toHaveCount(0)
    await expectNoAxeViolations(page, 'the login asked for by a completed podclub')
    await page.getByLabel('username').fill('jon.b')
    await page.getByLabel('password').fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(new RegExp(`/podclubs/${id}$`))
    await expect(page.getByRole('heading', { name: /hindsights \(\d+ \/ 20\)/ })).toBeVisible()
  })

  test('a member who did not attend is sent home with the toast', async ({ page }) => {
    await logIn(page, 'jon.b', DEMO_PASSWORD)
    const id = await podclubIdOf(page, 'The Cathedral')
    await page.getByRole('button', { name: 'jon.b' }).click()
    await page.getByRole('menuitem', { name: '[ logout ]' }).click()
    await expect(page).toHaveURL(/\/home/)

    await logInRequest(page.request, 'marcus', DEMO_PASSWORD)
    const res = await page.request.get(`/api/v1/podclubs/${id}/`)
    const body = (await res.json()) as { data: Record<string, unknown> }
    expect(Object.keys(body.data)).not.toContain('hindsights')
    expect(Object.keys(body.data)).not.toContain('chatlog')
    await page.goto(`/podclubs/${id}`)
    await expect(page).toHaveURL(/\/home$/)
    const toast = toasts(page)
    await expect(toast).toHaveCount(1)
    await expect(
      toast.getByText('You are not a participant of this podclub', { exact: true }),
    ).toBeVisible()
    await expect(
      toast.getByText('You can only view the discussion if you were registered.', { exact: true }),
    ).toBeVisible()
    await expect(page.getByText('hello from the back row')).toHaveCount(0)
  })

  test.describe('seen from Berlin', () => {
    test.use({ timezoneId: 'Europe/Berlin' })
    test('an upcoming podclub shows its details, Eastern time with the viewer’s beside it', async ({
      page,
    }) => {
      await logInRequest(page.request, 'jon.b', DEMO_PASSWORD)
      const id = await podclubIdOf(page, 'Price of a Free Lunch')
      await page.goto(`/podclubs/${id}`)
      await expect(
        page.getByRole('heading', { level: 1, name: 'Price of a Free Lunch' }),
      ).toBeVisible()
      const details = page.getByRole('region', { name: 'details' })
      await expect(details).toContainText(/ (PM|AM) E[SD]T/)
      await expect(details).toContainText(/your time: .* GMT\+[12]/)
      await expect(details).toContainText('1 seat left')
      await expect(details).toContainText('upcoming')
      await expect(details.getByRole('link', { name: 'Apple Podcasts' })).toBeVisible()
      await expect(page.getByRole('heading', { name: /hindsights/ })).toHaveCount(0)
      await expect(page.getByRole('heading', { name: '9 member(s) attending' })).toBeVisible()
      await atWidths(page, 'detail-upcoming', async () => {
        await expect(details).toBeVisible()
      })
    })
  })

  test('an unknown podclub shows the not-found page, with the way home', async ({ page }) => {
    await page.goto('/podclubs/999999')
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/home')
  })

  test('a podclub that fails to load shows the failure in red', async ({ page }) => {
    await page.route('**/api/v1/podclubs/*/', (route) =>
      route.fulfill({ status: 503, json: { detail: 'Try again soon.', code: 'INTERNAL' } }),
    )
    await openInPageRouter(page, '/podclubs/1')
    await expect(page.getByRole('alert')).toContainText('Failed to fetch podclub', {
      timeout: 15_000,
    })
  })
})
