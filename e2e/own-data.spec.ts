import { readFile } from 'node:fs/promises'
import { e2e } from './env'
import {
  apiAs,
  createPodclub,
  DEMO_PASSWORD,
  DEMO_SEAT_FILLERS,
  expect,
  expectNoAxeViolations,
  logIn,
  logInRequest,
  useDemoServer,
  test,
} from './fixtures'

/** Where to save screenshots of the screens checked here; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

// A member leaves the club for good, so the journey runs on a demo server of its own: priya
// attended the demo's completed 'The Cathedral' and wrote a hindsight there (with jon.b).
const DEMO_PORT = e2e.ownServerPort.ownData
const DEMO_URL = `http://127.0.0.1:${DEMO_PORT}`
test.use({ baseURL: DEMO_URL })
useDemoServer(DEMO_PORT)

const LEAVING = 'priya'
const NEXT_IN_LINE = 'ivy.c'
const PRIYAS_HINDSIGHT =
  'I came in skeptical and left with three new books on my list: https://example.com/reading-list'

test.describe("a member's own data", () => {
  test.describe.configure({ timeout: 120_000 })

  test('downloads their data, then deletes the account: the seat goes to the next in line, the hindsight stays as a former member', async ({
    page,
    playwright,
  }) => {
    // A full podclub: eight demo members and priya hold its seats, ivy.c waits for one.
    const podclub = await createPodclub(playwright, {
      title: 'The Chair That Came Back',
      seatHolders: [...DEMO_SEAT_FILLERS.filter((name) => name !== LEAVING), 'marcus'],
      baseUrl: DEMO_URL,
    })
    const priya = await apiAs(playwright, LEAVING, DEMO_PASSWORD, DEMO_URL)
    expect((await priya.post(`/register/${podclub.id}/`)).status()).toBe(200)
    await priya.request.dispose()
    const ivy = await apiAs(playwright, NEXT_IN_LINE, DEMO_PASSWORD, DEMO_URL)
    expect((await ivy.post(`/podclubs/${podclub.id}/seat_waitlist/`)).status()).toBe(200)
    await ivy.request.dispose()

    await logIn(page, LEAVING, DEMO_PASSWORD, '/profile')
    const card = page.getByRole('region', { name: 'your data' })
    await expect(card.getByRole('button', { name: 'download my data' })).toBeVisible()
    await expect(card.getByRole('button', { name: 'delete my account' })).toBeVisible()
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expectNoAxeViolations(page, `the profile with its data card at ${width}px`)
      if (SHOTS) await card.screenshot({ path: `${SHOTS}/own-data-card-${width}.png` })
    }

    // The file holds priya's own data, and nobody else's.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'download my data' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^podclub-data-priya-\d{4}-\d{2}-\d{2}\.json$/)
    const text = await readFile((await download.path())!, 'utf8')
    const file = JSON.parse(text) as {
      account: { username: string; email: string; city: string }
      seats: { podclub_id: number; status: string }[]
      hindsights: { episode_title: string; message: string }[]
      podclubs_hosted: { episode_title: string }[]
    }
    expect(file.account).toMatchObject({
      username: 'priya',
      email: 'priya@example.com',
      city: 'Jersey City',
    })
    expect(file.seats).toContainEqual(
      expect.objectContaining({ podclub_id: podclub.id, status: 'upcoming' }),
    )
    expect(file.hindsights).toContainEqual(
      expect.objectContaining({ episode_title: 'The Cathedral', message: PRIYAS_HINDSIGHT }),
    )
    expect(file.podclubs_hosted.map((p) => p.episode_title)).toContain('Why We Trust Strangers')
    for (const other of ['jonb@example.com', 'ivyc@example.com', 'maya.r', '$argon2']) {
      expect(text).not.toContain(other)
    }

    // Deleting asks for the password, in a dialog the keyboard and screen readers can use.
    await card.getByRole('button', { name: 'delete my account' }).click()
    const dialog = page.getByRole('dialog', { name: 'delete my account' })
    const password = dialog.getByLabel('password')
    await expect(password).toBeFocused()
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expectNoAxeViolations(page, `the delete dialog at ${width}px`)
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/own-data-dialog-${width}.png` })
    }
    await password.fill('not my password')
    await password.press('Enter')
    await expect(dialog.getByText('Incorrect password.')).toBeVisible()
    await expect(password).toHaveAttribute('aria-invalid', 'true')
    // Its toast too (it comes in a render of its own, the toaster's code with the first one):
    // axe must look once it is there and has faded in, not while it appears.
    await expect(page.locator('li', { hasText: 'Failed to delete account' })).toBeVisible()
    await expectNoAxeViolations(page, 'the delete dialog with its error')
    await password.fill(DEMO_PASSWORD)
    await dialog.getByRole('button', { name: 'delete my account' }).click()

    await expect(page).toHaveURL(/\/home/)
    // The toast is in the accessibility tree (no modal hides it any more), not only on screen.
    const notifications = page.getByRole('region', { name: /notifications/i })
    await expect(
      notifications.getByRole('listitem').filter({ hasText: 'Account deleted' }),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: /log ?in/i }).first()).toBeVisible()

    // The name and password no longer log in.
    await page.goto('/login')
    await page.getByLabel('Username').fill(LEAVING)
    await page.getByLabel('Password').fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: /log ?in/i }).click()
    await expect(page.getByText('Invalid username or password.').first()).toBeVisible()
    await expect(page).toHaveURL(/\/login/)

    // Her seat went to ivy.c, first in line.
    await page.goto(`/podclubs/${podclub.id}`)
    const attending = page.getByRole('region', { name: /member\(s\) attending/ })
    await expect(attending).toContainText(NEXT_IN_LINE)
    await expect(attending).not.toContainText(LEAVING)

    // Her hindsight stays, from 'a former member', for the others who were there.
    await logInRequest(page.request, 'jon.b', DEMO_PASSWORD)
    const profile = (await (await page.request.get('/api/v1/profile/')).json()) as {
      data: { past_podclubs: { id: number; episode_title: string }[] }
    }
    const past = profile.data.past_podclubs.find((p) => p.episode_title === 'The Cathedral')!
    await page.goto(`/podclubs/${past.id}`)
    const list = page.getByRole('region', { name: 'hindsights list' })
    const hers = list.getByRole('listitem').filter({ hasText: PRIYAS_HINDSIGHT })
    await expect(hers).toContainText('a former member')
    await expect(list).not.toContainText(LEAVING)
  })
})
