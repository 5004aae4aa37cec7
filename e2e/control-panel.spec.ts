import type { Page } from '@playwright/test'
import { startTestSmtp, type TestSmtp } from '../src/server/testing/smtp'
import { e2e } from './env'
import {
  createMember,
  expect,
  expectNoAxeViolations,
  logIn,
  test,
  toastWith,
  useDemoServer,
} from './fixtures'

/** Where to save screenshots of the sections for a person to look at; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

/** Opens one of the panel's sections by its tab. */
async function showSection(page: Page, name: string) {
  await page.getByRole('tab', { name }).click()
  await expect(page.getByRole('tab', { name, selected: true })).toBeVisible()
}

/** axe at phone and desktop width, with a screenshot of each for a person to look at. */
async function checkBothWidths(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await expect(page.getByRole('heading', { name: 'Upcoming podclubs' })).toBeVisible()
    await expectNoAxeViolations(page, `the ${name} section at ${width} px`)
    // Tables scroll inside their own regions: nothing else reaches past the screen's edge.
    const sticksOut = await page.evaluate(() => {
      const edge = document.documentElement.clientWidth
      return Array.from(document.querySelectorAll('main *'))
        .filter((el) => !el.closest('[role="region"][tabindex]'))
        .filter((el) => el.getBoundingClientRect().right > edge + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 120))
        .slice(0, 5)
    })
    expect(sticksOut).toEqual([])
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({ path: `/tmp/control-panel-${name}-${width}.png`, fullPage: true })
  }
}

test.describe('control panel on a fresh club', () => {
  test('a member opening /controlpanel is sent home', async ({ page, playwright }) => {
    const request = await playwright.request.newContext({ baseURL: e2e.baseUrl })
    const member = await createMember(request)
    await logIn(page, member.username, member.password, '/controlpanel')
    await expect(page).toHaveURL(/\/home$/)
    await expect(page.getByRole('heading', { name: 'control panel' })).toHaveCount(0)
  })

  // The shared server runs with demo data too, so the upcoming table is not empty here.
  test('an operator sees the lists and generates invite codes', async ({ page }) => {
    await logIn(page, e2e.admin.username, e2e.admin.password, '/controlpanel')
    await expect(page.getByRole('region', { name: 'Upcoming podclubs' })).toBeVisible()
    await showSection(page, 'members & codes')
    await expect(page.getByRole('region', { name: 'Invitation codes' })).toBeVisible()
    await showSection(page, 'podclubs')
    await checkBothWidths(page, 'shared')

    await showSection(page, 'members & codes')
    await page.getByLabel('how many codes (1–100)').fill('3')
    await page.getByRole('button', { name: '[ generate codes ]' }).click()
    const created = page.getByRole('status').filter({ hasText: 'New codes, ready to share' })
    await expect(created.getByRole('listitem')).toHaveCount(3)
    const first = (await created.getByRole('listitem').first().textContent())!.trim()
    const codes = page.getByRole('region', { name: 'Invitation codes' })
    await expect(codes.getByRole('row', { name: `${first} Active` })).toBeVisible()
  })

  test('an unsubscribe link with a bad token says so', async ({ page }) => {
    await page.goto('/unsubscribe/1/not-the-token')
    await page.getByRole('button', { name: 'Unsubscribe from monthly e-mails' }).click()
    await expect(page.getByRole('alert')).toHaveText('This unsubscribe link is not valid.')
    await page.setViewportSize({ width: 375, height: 740 })
    await expectNoAxeViolations(page, 'the control panel')
  })
})

// This journey changes podclubs, so it runs against a second server started here in
// demo mode (sample podclubs and members), with its own SMTP server to read the mail from.
test.describe('control panel with podclubs', () => {
  test.describe.configure({ timeout: 120_000 })
  const port = e2e.ownServerPort.controlPanel
  const demoUrl = `http://127.0.0.1:${port}`
  let smtp: TestSmtp | undefined

  test.beforeAll(async () => {
    smtp = await startTestSmtp()
  })
  test.afterAll(async () => {
    await smtp?.stop()
  })
  useDemoServer(port, () => ({ SMTP_URL: smtp!.url }))

  async function openPanel(page: Page) {
    await page.goto(`${demoUrl}/login`)
    await page.getByLabel('username').fill(e2e.admin.username)
    await page.getByLabel('password').fill(e2e.admin.password)
    await page.getByRole('button', { name: '[ login ]' }).click()
    await expect(page).toHaveURL(/\/home$/)
    await page.goto(`${demoUrl}/controlpanel`)
    await expect(page.getByRole('heading', { name: 'Upcoming podclubs' })).toBeVisible()
    return page.getByRole('region', { name: 'Upcoming podclubs' })
  }

  const rowOf = (page: Page, title: string) =>
    page
      .getByRole('region', { name: 'Upcoming podclubs' })
      .getByRole('row')
      .filter({ hasText: title })

  async function idOf(page: Page, title: string) {
    return (await rowOf(page, title).getByRole('cell').first().textContent())!.trim()
  }

  function waitForSmtp(predicate: (m: TestSmtp['messages'][number]) => boolean) {
    return smtp!.waitFor(predicate, 20_000)
  }

  test('an operator completes a podclub, sends a 10-minute notice and a test blast, and sees the mail go out', async ({
    page,
  }) => {
    const upcoming = await openPanel(page)
    await expect(upcoming.getByRole('row')).toHaveCount(6)
    await checkBothWidths(page, 'demo')
    await page.setViewportSize({ width: 1280, height: 900 })

    // A podclub months ahead cannot be completed yet: Mark Complete says from when, and waits.
    const title = 'The Last Search Result'
    const done = rowOf(page, title)
    const confirm = page.getByRole('alertdialog', { name: 'Mark this podclub complete?' })
    await expect(done.getByRole('button', { name: 'Mark Complete' })).toBeDisabled()
    await expect(done.getByRole('cell').nth(8)).toContainText('from its start')

    // Once it has started (moved to a moment from now), it can: it asks first, then the podclub
    // leaves the upcoming list at once and heads the recently completed one, shown once.
    const id = await idOf(page, title)
    const csrf = (await page.context().cookies()).find((c) => c.name === 'csrftoken')!.value
    const startsAt = new Date(Date.now() + 3_000)
    const moved = await page.request.patch(`${demoUrl}/api/v1/controlpanel/podclubs/${id}/`, {
      headers: { 'X-CSRFToken': csrf },
      data: { scheduledStart: startsAt.toISOString() },
    })
    expect(moved.status(), await moved.text()).toBe(200)
    await page.getByRole('button', { name: '[ refresh ]' }).click()
    await expect(done.getByRole('button', { name: 'Mark Complete' })).toBeEnabled({
      timeout: 10_000,
    })
    await done.getByRole('button', { name: 'Mark Complete' }).click()
    await expect(confirm).toContainText(title)
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expectNoAxeViolations(page, 'the control panel')
      await page.screenshot({ path: `/tmp/control-panel-complete-dialog-${width}.png` })
    }
    await confirm.getByRole('button', { name: 'Yes, Mark Complete' }).click()
    await expect(toastWith(page, 'podclub marked as complete')).toBeVisible()
    await expect(rowOf(page, title)).toHaveCount(0)
    const completed = page.getByRole('region', { name: 'Recently completed' })
    await expect(completed.getByRole('row').nth(1)).toContainText(title)
    await expect(completed.getByRole('row').nth(1).getByRole('cell').nth(8)).toHaveText('completed')
    await expect(page.getByRole('cell', { name: title, exact: true })).toHaveCount(1)
    await page.getByRole('button', { name: '[ refresh ]' }).click()
    await expect(rowOf(page, title)).toHaveCount(0)
    await expect(completed.getByRole('row').nth(1)).toContainText(title)
    await checkBothWidths(page, 'completed')
    await page.setViewportSize({ width: 1280, height: 900 })

    // The notice of a podclub 41 days ahead asks first and says what it sends; confirmed, it goes
    // to the podmeister and attendees with the Zoom link, saying how far off the start is, and
    // the automatic 10-minute reminder is still to come.
    const zoom = rowOf(page, 'What the Map Leaves Out')
    await zoom.getByRole('button', { name: 'Send Notice' }).click()
    const ask = page.getByRole('alertdialog', { name: 'Send the notice now?' })
    await expect(ask).toContainText(
      /It starts in \d+ days \(.*\)\. Sending the notice now e-mails its podmeister and attendees the Zoom link and says it starts in \d+ days\./,
    )
    await expectNoAxeViolations(page, 'the notice confirmation')
    await ask.getByRole('button', { name: 'Yes, Send Notice' }).click()
    await expect(toastWith(page, '10-minute notice sent successfully')).toBeVisible()
    await expect(zoom.getByRole('cell').nth(7)).toContainText('notice sent')
    await expect(zoom.getByRole('button', { name: 'Send Notice' })).toBeEnabled()
    const notice = await waitForSmtp((m) => m.text.includes('What the Map Leaves Out'))
    expect(notice.text).toContain('https://zoom.us/j/5550100')
    expect(notice.subject).toMatch(/starts in \d+ days$/)

    // The test blast goes to super users only.
    const ids = [
      await idOf(page, 'The Sound of a Shrinking Room'),
      await idOf(page, 'Price of a Free Lunch'),
      await idOf(page, 'Letters Never Sent'),
    ]
    await showSection(page, 'e-mail & blasts')
    const testBlast = page.getByRole('group', { name: 'test blast' })
    for (const [i, id] of ids.entries())
      await testBlast.getByPlaceholder(`podclub ID ${i + 1}`).fill(id)
    await page.getByRole('button', { name: '[ send test blast ]' }).click()
    await expect(toastWith(page, 'Test Blast Sent')).toContainText(
      'The test monthly blast was sent successfully.',
    )
    await expect(testBlast.getByPlaceholder('podclub ID 1')).toHaveValue('')
    const blast = await waitForSmtp((m) => m.subject.startsWith('[test] This month at podclub'))
    expect(blast.to).toEqual([e2e.admin.email])

    // Once the outbox has sent them, the e-mail activity lists them as delivered.
    await expect(async () => {
      await page.getByRole('button', { name: '[ refresh ]' }).click()
      const emails = page.getByRole('region', { name: 'Recent email activity' })
      await expect(
        emails.getByRole('row').filter({ hasText: blast.subject }).filter({ hasText: 'Delivered' }),
      ).toHaveCount(1, { timeout: 2_000 })
      // The notice went out before it, maybe a page further back: the panel's data says.
      const panel = (await (await page.request.get(`${demoUrl}/api/v1/controlpanel/`)).json()) as {
        data: { email_tracker: { subject: string; success: boolean }[] }
      }
      expect(panel.data.email_tracker.some((m) => m.subject === notice.subject && m.success)).toBe(
        true,
      )
    }).toPass({ timeout: 30_000 })
    // Ten a page, newest first, with the way to older ones.
    const emails = page.getByRole('region', { name: 'Recent email activity' })
    const pager = page.getByRole('navigation', { name: 'e-mail activity pages' })
    await expect(pager).toContainText(/^1–10 of \d+, newest first/)
    await expect(emails.getByRole('row')).toHaveCount(11)
    await pager.getByRole('button', { name: '[ older ]' }).click()
    await expect(pager).toContainText(/^11–\d+ of \d+, newest first/)
    await pager.getByRole('button', { name: '[ newer ]' }).click()
    const firstRow = page
      .getByRole('region', { name: 'Recent email activity' })
      .getByRole('row')
      .nth(1)
    // A US medium date with a short time: 'Nov 23, 2026, 1:34 AM'.
    await expect(firstRow.getByRole('cell').first()).toHaveText(
      /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
    )

    // The link in the blast unsubscribes its reader from later blasts.
    const link = /\/unsubscribe\/\d+\/[^\s)]+/.exec(blast.text)?.[0]
    expect(link, blast.text).toBeTruthy()
    await page.goto(`${demoUrl}${link}`)
    await page.getByRole('button', { name: 'Unsubscribe from monthly e-mails' }).click()
    const confirmed = page.getByRole('status').filter({ hasText: 'You are unsubscribed' })
    await expect(confirmed).toContainText('Reminders for seats you hold still come')
  })

  test('the monthly blast asks first, goes to every member, and one click keeps a member out of the next', async ({
    page,
    playwright,
  }) => {
    await openPanel(page)
    const ids = [
      await idOf(page, 'The Sound of a Shrinking Room'),
      await idOf(page, 'Price of a Free Lunch'),
      await idOf(page, 'Letters Never Sent'),
    ]
    await showSection(page, 'e-mail & blasts')
    const monthly = page.getByRole('group', { name: 'monthly blast' })
    for (const [i, id] of ids.entries())
      await monthly.getByPlaceholder(`podclub ID ${i + 1}`).fill(id)
    await page.getByRole('button', { name: '[ send monthly blast ]' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Are you absolutely sure?' })
    await expect(dialog).toContainText(
      'This will send the monthly blast to ALL members. This action cannot be undone.',
    )
    await expectNoAxeViolations(page, 'the control panel')
    await page.screenshot({ path: '/tmp/control-panel-dialog-1280.png' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(monthly.getByPlaceholder('podclub ID 1')).toHaveValue(ids[0]!)
    expect(smtp!.messages.filter((m) => m.subject.startsWith('This month'))).toEqual([])

    // Confirmed: every subscribed member gets it, with RFC 8058 one-click headers.
    const isMonthly = (m: TestSmtp['messages'][number]) => m.subject.startsWith('This month')
    const sent = toastWith(page, 'Monthly Blast Sent')
    async function sendMonthly(trio: string[]) {
      // The toast of the blast before would answer for this one: it goes first (5 s on screen).
      await expect(sent).toHaveCount(0, { timeout: 15_000 })
      for (const [i, id] of trio.entries())
        await monthly.getByPlaceholder(`podclub ID ${i + 1}`).fill(id)
      await page.getByRole('button', { name: '[ send monthly blast ]' }).click()
      await dialog.getByRole('button', { name: 'Yes, Send Monthly Blast' }).click()
      await expect(sent).toContainText('sent successfully to all members')
      await expect(monthly.getByPlaceholder('podclub ID 1')).toHaveValue('')
      const queued = Number(/\((\d+) queued\)/.exec((await sent.textContent()) ?? '')?.[1])
      return queued
    }
    const first = await sendMonthly(ids)
    expect(first).toBeGreaterThan(5)
    const toMaya = await waitForSmtp((m) => isMonthly(m) && m.to.includes('mayar@example.com'))
    expect(toMaya.text).toContain('The Sound of a Shrinking Room')
    expect(toMaya.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    const oneClick = /^<([^>]+)>$/.exec(toMaya.headers['list-unsubscribe'] ?? '')?.[1]
    expect(oneClick, toMaya.headers['list-unsubscribe']).toBeTruthy()

    // A mail client's one-click POST: no cookie, no CSRF token, a form body.
    const client = await playwright.request.newContext()
    const res = await client.post(oneClick!, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    })
    expect(res.status()).toBe(200)
    await client.dispose()

    // The next blast (three other podclubs) skips her, and only her.
    await showSection(page, 'podclubs')
    const next = [ids[1]!, ids[2]!, await idOf(page, 'What the Map Leaves Out')]
    await showSection(page, 'e-mail & blasts')
    const second = await sendMonthly(next)
    expect(second).toBe(first - 1)
    const isSecond = (m: TestSmtp['messages'][number]) =>
      isMonthly(m) && m.text.includes('What the Map Leaves Out')
    await expect
      .poll(() => smtp!.messages.filter(isSecond).length, { timeout: 20_000 })
      .toBe(second)
    const recipients = smtp!.messages.filter(isSecond).flatMap((m) => m.to)
    expect(recipients).not.toContain('mayar@example.com')
    expect(recipients).toContain('jonb@example.com')
  })

  test('an operator quick-registers a member and creates a podclub that joins the upcoming table', async ({
    page,
  }) => {
    await openPanel(page)
    const id = await idOf(page, 'The Sound of a Shrinking Room')
    const quick = page.getByRole('form', { name: 'Quick Registration' })
    await quick.getByLabel('podclub ID number').fill(id)
    await quick.getByLabel('Username').fill('ollie')
    await quick.getByRole('button', { name: 'Register' }).click()
    await expect(toastWith(page, 'User registered for podclub')).toBeVisible()
    await expect(quick.getByLabel('Username')).toHaveValue('')

    // The same member again: refused, with the reason.
    await quick.getByLabel('podclub ID number').fill(id)
    await quick.getByLabel('Username').fill('ollie')
    await quick.getByRole('button', { name: 'Register' }).click()
    await expect(toastWith(page, 'Registration failed')).toContainText(
      'This member is already registered for this podclub.',
    )

    await showSection(page, 'create & edit')
    const create = page.getByRole('form', { name: 'create a podclub' })
    const fill = (label: string, value: string) =>
      create.getByLabel(label, { exact: true }).fill(value)
    await fill('episode title', 'A Podclub Made by Hand')
    await fill('podcast', 'hidden brain')
    await fill('podmeister (username)', 'bea.n')
    await fill('date and time (ET)', '01/14/2030 19:00')
    await fill('keyword 1', 'craft')
    await fill('keyword 2', 'habits')
    await fill('keyword 3', 'patience')
    await fill('link 1', 'https://example.com/made-by-hand')
    await fill('description', 'An episode about making things slowly, and what it teaches us.')
    await fill('podmeister note', 'I listened to it twice and would love to hear what you think.')
    await create.getByRole('button', { name: '[ create podclub ]' }).click()
    await expect(toastWith(page, 'podclub created')).toContainText('A Podclub Made by Hand')
    await showSection(page, 'podclubs')
    const row = rowOf(page, 'A Podclub Made by Hand')
    await expect(row).toHaveCount(1)
    await expect(row).toContainText('bea.n')
    await checkBothWidths(page, 'forms')
  })

  test('on a phone each section fits the screen, rows and all, and the sections are tabs the address remembers', async ({
    page,
    playwright,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await openPanel(page)
    const sections = [
      { tab: 'podclubs', param: 'podclubs', heading: 'Upcoming podclubs' },
      { tab: 'e-mail & blasts', param: 'mail', heading: 'Recent email activity' },
      { tab: 'members & codes', param: 'members', heading: 'Invitation codes' },
      { tab: 'create & edit', param: 'create', heading: 'Create a podclub' },
      { tab: 'suggestions & feedback', param: 'notes', heading: 'Suggestions' },
    ]
    await expect(page.getByRole('tablist', { name: 'control panel sections' })).toBeVisible()
    expect(await page.getByRole('tab').allTextContents()).toEqual(sections.map((s) => s.tab))

    // The first section is open already: visit it last, so each click changes the address.
    for (const section of [...sections.slice(1), sections[0]!]) {
      await showSection(page, section.tab)
      await expect(page).toHaveURL(new RegExp(`/controlpanel\\?section=${section.param}$`))
      await expect(page.getByRole('heading', { name: section.heading, exact: true })).toBeVisible()
      // Nothing reaches past the screen's edge, not even inside a table's own region: a row's
      // Send Notice and Mark Complete are on screen without scrolling sideways.
      const wide = await page.evaluate(() => {
        const edge = document.documentElement.clientWidth
        // How far an element shows: a box that clips (a scrolling region, screen-reader-only
        // text) hides what reaches past it; the regions are checked for scrolling below.
        const shownRight = (el: Element) => {
          let right = el.getBoundingClientRect().right
          for (let box = el.parentElement; box; box = box.parentElement)
            if (getComputedStyle(box).overflowX !== 'visible')
              right = Math.min(right, box.getBoundingClientRect().right)
          return right
        }
        const sticksOut = Array.from(document.querySelectorAll('main *'))
          .filter((el) => shownRight(el) > edge + 1)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 100))
        const scrollsSideways = Array.from(document.querySelectorAll('main [role="region"]'))
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.getAttribute('aria-label'))
        return { page: document.documentElement.scrollWidth - edge, sticksOut, scrollsSideways }
      })
      expect(wide).toEqual({ page: 0, sticksOut: [], scrollsSideways: [] })
      await expectNoAxeViolations(page, 'the control panel')
      if (SHOTS)
        await page.screenshot({
          path: `${SHOTS}/control-panel-${section.param}-375.png`,
          fullPage: true,
        })
    }
    const upcoming = page.getByRole('region', { name: 'Upcoming podclubs' })
    await showSection(page, 'podclubs')
    await expect(upcoming.getByRole('button', { name: 'Send Notice' }).first()).toBeInViewport()

    // The keyboard moves along the tabs; a reload opens the section the address names.
    await page.getByRole('tab', { name: 'podclubs' }).focus()
    await page.keyboard.press('ArrowRight')
    await expect(page.getByRole('tab', { name: 'e-mail & blasts', selected: true })).toBeFocused()
    await expect(page).toHaveURL(/\?section=mail$/)
    await page.keyboard.press('End')
    await expect(
      page.getByRole('tab', { name: 'suggestions & feedback', selected: true }),
    ).toBeFocused()
    await page.reload()
    await expect(
      page.getByRole('tab', { name: 'suggestions & feedback', selected: true }),
    ).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Feedback', exact: true })).toBeVisible()

    // At desktop width, each section is a screen or so, not one column of all of them, and no
    // table is cut at its edge: not even by a title of one long word and a podmeister whose name
    // is 24 letters without a break.
    const signup = await playwright.request.newContext({ baseURL: demoUrl })
    await signup.get('/api/v1/whoami/')
    const token = (await signup.storageState()).cookies.find((c) => c.name === 'csrftoken')!.value
    const longName = `wide.${Date.now().toString(36)}`.padEnd(24, 'x')
    const joined = await signup.post('/api/v1/signup/', {
      headers: { 'X-CSRFToken': token },
      data: {
        username: longName,
        email: `${longName}@example.com`,
        password: 'password-e2e-1',
        inviteCode: e2e.clubCode,
        city: 'Brooklyn',
        source: 'e2e',
      },
    })
    expect(joined.status(), await joined.text()).toBe(201)
    await signup.dispose()
    const csrf = (await page.context().cookies()).find((c) => c.name === 'csrftoken')!.value
    const created = await page.request.post(`${demoUrl}/api/v1/controlpanel/podclubs/`, {
      headers: { 'X-CSRFToken': csrf },
      data: {
        title: 'Supercalifragilisticexpialidocious-and-Antidisestablishmentarianism',
        podcastName: 'Radiolab',
        keywordOne: 'words',
        keywordTwo: 'length',
        keywordThree: 'tables',
        linkOne: 'https://example.com/episode',
        scheduledStart: '12/01/2027 14:00',
        description: 'A long enough description of the episode for the club to read first.',
        podmeisterNote: 'A long enough note from the podmeister about why this one is good.',
        location: 'zoom',
        podmeister: longName,
      },
    })
    expect(created.status(), await created.text()).toBe(201)
    await page.getByRole('button', { name: '[ refresh ]' }).click()
    await page.setViewportSize({ width: 1280, height: 900 })
    for (const section of sections) {
      await showSection(page, section.tab)
      const cut = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main [role="region"]'))
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.getAttribute('aria-label')),
      )
      expect(cut, `${section.tab} at 1280 px`).toEqual([])
      await expectNoAxeViolations(page, 'the control panel')
      if (SHOTS)
        await page.screenshot({
          path: `${SHOTS}/control-panel-${section.param}-1280.png`,
          fullPage: true,
        })
    }
    await showSection(page, 'podclubs')
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    expect(height).toBeLessThan(2500)
  })
})
