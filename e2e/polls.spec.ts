import type { APIRequestContext, Page } from '@playwright/test'
import { e2e } from './env'
import { expect, expectNoAxeViolations, test, waitForMail } from './fixtures'

type CreatedPoll = { id: number; results: { id: number; title: string }[] }

/** A client of the API that keeps its cookies and sends the CSRF header, as the page does. */
async function csrfHeader(request: APIRequestContext) {
  await request.get('/api/v1/whoami/')
  const { cookies } = await request.storageState()
  return { 'X-CSRFToken': cookies.find((c) => c.name === 'csrftoken')!.value }
}

/** Creates a poll through the operator call, as the admin super user. */
async function createPoll(
  request: APIRequestContext,
  title: string,
  expiresInMs: number,
): Promise<CreatedPoll> {
  const headers = await csrfHeader(request)
  const login = await request.post('/api/v1/login/', {
    headers,
    data: { username: e2e.admin.username, password: e2e.admin.password },
  })
  expect(login.status(), await login.text()).toBe(200)
  const res = await request.post('/api/v1/controlpanel/polls/', {
    headers: await csrfHeader(request),
    data: {
      title,
      description: 'the most titillating podcast for next month',
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
      options: [
        {
          title: 'The Memory Palace: Ice',
          podcast: 'The Memory Palace',
          description: 'A short history told in a small room.',
          link: 'https://example.com/ice',
        },
        {
          title: 'Search Engine: Why are there so many ads?',
          podcast: 'Search Engine',
          description: 'An honest question, followed all the way down.',
          link: 'https://example.com/ads',
        },
        { title: 'Hidden Brain: The Paradox of Choice', podcast: 'Hidden Brain' },
      ],
    },
  })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { data: CreatedPoll }).data
}

const linkIn = (text: string, pollId: number) =>
  new RegExp(`https?://[^\\s]+/polls/${pollId}/[\\w-]+`).exec(text)?.[0]

async function mailedCode(request: APIRequestContext, pollId: number, email: string) {
  const res = await request.post(`/api/v1/polls/${pollId}/invite/`, {
    headers: await csrfHeader(request),
    data: { email },
  })
  expect(res.status(), await res.text()).toBe(200)
  const mail = await waitForMail((m) => m.to.includes(email))
  const link = linkIn(mail.text, pollId)
  expect(link).toBeTruthy()
  return link!.split('/').at(-1)!
}

const voteButtons = (page: Page) => page.getByRole('button', { name: /^\[ vote \] for / })

test.describe('monthly poll', () => {
  test('a visitor asks for a code, votes with the mailed link, and the vote sticks', async ({
    page,
    playwright,
  }) => {
    const operator = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const poll = await createPoll(operator, 'Deep dive for January', 24 * 60 * 60 * 1000)
    await operator.dispose()
    const email = `voter.${Date.now()}@example.com`

    await page.goto(`/polls/${poll.id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deep dive for January')
    await expect(voteButtons(page)).toHaveCount(0)
    const card = page.getByRole('region', { name: '#voteordie' })
    await card.getByLabel('email').fill(email)
    await card.getByRole('button', { name: '[ send my code ]' }).click()
    await expect(card.getByText('Code sent successfully!')).toBeVisible()
    await expect(card.getByText('Code sent successfully!')).toBeHidden({ timeout: 5_000 })

    const mail = await waitForMail((m) => m.to.includes(email))
    const link = linkIn(mail.text, poll.id)!
    expect(link.startsWith(`${e2e.baseUrl}/polls/${poll.id}/`)).toBe(true)
    await page.goto(link)
    const code = link.split('/').at(-1)!
    await expect(page.getByText(`${code.slice(0, 8)}… (valid)`)).toBeVisible()
    await expect(voteButtons(page)).toHaveCount(3)

    await page.getByRole('button', { name: `[ vote ] for ${poll.results[1]!.title}` }).click()
    const confetti = page.getByTestId('confetti')
    await expect(confetti).toBeAttached()
    if (process.env.POLL_SCREENSHOTS) {
      await page.screenshot({ path: `${process.env.POLL_SCREENSHOTS}/poll-voted-1280.png` })
    }
    await expect(confetti.locator('[data-piece]')).toHaveCount(200)
    await expect(
      page.getByRole('status').filter({ hasText: 'Vote submitted successfully!' }),
    ).toBeVisible()
    await expect(voteButtons(page)).toHaveCount(0)
    await expect(page.getByText('You have voted. Thank you!')).toBeVisible()
    const top = page
      .getByRole('list', { name: /options/i })
      .getByRole('listitem')
      .first()
    await expect(top).toContainText(poll.results[1]!.title)
    await expect(top).toContainText('100%')
    await expect(top).toContainText('1 vote')

    await page.reload()
    await expect(page.getByText('You have voted. Thank you!')).toBeVisible()
    await expect(voteButtons(page)).toHaveCount(0)
    await expect(page.getByText(`${code.slice(0, 8)}… (used for your vote)`)).toBeVisible()
    await expect(page.getByTestId('confetti')).toHaveCount(0, { timeout: 5_000 })
  })

  test('an expired poll shows the Winner and no #voteordie card', async ({ page, playwright }) => {
    const api = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const expiresInMs = 4_000
    const started = Date.now()
    const poll = await createPoll(api, 'Deep dive for last month', expiresInMs)
    const code = await mailedCode(api, poll.id, `late.${Date.now()}@example.com`)
    const vote = await api.post(`/api/v1/polls/${poll.id}/cast/`, {
      headers: await csrfHeader(api),
      data: { voteCode: code, optionId: poll.results[2]!.id },
    })
    expect(vote.status(), await vote.text()).toBe(200)
    await page.waitForTimeout(Math.max(0, started + expiresInMs + 500 - Date.now()))
    await api.dispose()

    await page.goto(`/polls/${poll.id}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deep dive for last month')
    const options = page.getByRole('list', { name: /options/i }).getByRole('listitem')
    await expect(options.first()).toContainText('Winner')
    await expect(options.first()).toContainText(poll.results[2]!.title)
    await expect(page.getByText('Winner', { exact: true })).toHaveCount(1)
    await expect(page.getByText('Voting has closed')).toBeVisible()
    await expect(page.getByRole('heading', { name: '#voteordie' })).toHaveCount(0)
  })

  test('the poll window has no axe violations at 375 and 1280 px', async ({ page, playwright }) => {
    test.setTimeout(60_000)
    const api = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const expiresInMs = 4_000
    const started = Date.now()
    const expired = await createPoll(api, 'Deep dive that closed', expiresInMs)
    const expiredCode = await mailedCode(api, expired.id, `gone.${Date.now()}@example.com`)
    await api.post(`/api/v1/polls/${expired.id}/cast/`, {
      headers: await csrfHeader(api),
      data: { voteCode: expiredCode, optionId: expired.results[0]!.id },
    })
    const active = await createPoll(api, 'Deep dive for February', 24 * 60 * 60 * 1000)
    for (const [i, option] of [
      active.results[0]!,
      active.results[1]!,
      active.results[0]!,
    ].entries()) {
      const code = await mailedCode(api, active.id, `axe${i}.${Date.now()}@example.com`)
      await api.post(`/api/v1/polls/${active.id}/cast/`, {
        headers: await csrfHeader(api),
        data: { voteCode: code, optionId: option.id },
      })
    }
    const code = await mailedCode(api, active.id, `axe.code.${Date.now()}@example.com`)
    await api.dispose()
    await page.waitForTimeout(Math.max(0, started + expiresInMs + 500 - Date.now()))

    const screens = [
      { name: 'no-poll', path: '/polls', title: 'No Poll Selected' },
      { name: 'active', path: `/polls/${active.id}`, title: 'Deep dive for February' },
      { name: 'code', path: `/polls/${active.id}/${code}`, title: 'Deep dive for February' },
      { name: 'expired', path: `/polls/${expired.id}`, title: 'Deep dive that closed' },
      { name: 'not-found', path: '/polls/999999', title: 'Page Not Found' },
    ]
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      for (const s of screens) {
        await page.goto(s.path)
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(s.title)
        if (s.name === 'code') await expect(voteButtons(page)).toHaveCount(3)
        await expectNoAxeViolations(page, `${s.path} at ${width} px`)
        if (process.env.POLL_SCREENSHOTS) {
          await page.screenshot({
            path: `${process.env.POLL_SCREENSHOTS}/poll-${s.name}-${width}.png`,
            fullPage: true,
          })
        }
      }
    }
  })
})
