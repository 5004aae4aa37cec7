import type { Page, PlaywrightWorkerArgs } from '@playwright/test'
import { e2e } from './env'
import {
  createMember,
  createPodclub,
  DEMO_SEAT_FILLERS,
  expect,
  expectNoAxeViolations,
  logIn,
  test,
  toastWith,
  type Mail,
  type Member,
  waitForMail,
} from './fixtures'

const SHOTS = process.env.E2E_SCREENSHOTS_DIR
/** An upcoming podclub three days out whose nine seats `seatHolder` and eight demo members hold. */
function createFullPodclub(playwright: PlaywrightWorkerArgs['playwright'], seatHolder: Member) {
  return createPodclub(playwright, {
    title: `The Seat That Came Back ${Date.now().toString(36)}`,
    seatHolders: [...DEMO_SEAT_FILLERS, seatHolder.username],
  })
}

/** The `.ics` attached to a message, as the test SMTP server's MIME parser decoded it. */
function calendarAttachment(mail: Mail): { filename?: string; content: string } {
  const part = mail.attachments.find((a) => a.contentType === 'text/calendar')
  expect(part, 'a text/calendar attachment').toBeDefined()
  return part!
}

async function screenshot(page: Page, name: string, target = page.locator('body')) {
  if (SHOTS) await target.screenshot({ path: `${SHOTS}/${name}.png` })
}

/** Cards sit in a grid; each width has its own look worth checking. */
const WIDTHS = [375, 1280]

test.describe('the seat waitlist', () => {
  test.describe.configure({ timeout: 90_000 })

  test('a member waits for a full podclub, another cancels, and the seat and its calendar e-mail come to the first', async ({
    page,
    browser,
    playwright,
  }) => {
    const waiter = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const holder = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    const podclub = await createFullPodclub(playwright, holder)

    await page.emulateMedia({ reducedMotion: 'reduce' })
    await logIn(page, waiter.username, waiter.password)
    const card = page.getByRole('article', { name: podclub.title })
    await expect(card).toContainText('No seats left')
    await expect(card.getByRole('button', { name: '[ registration full ]' })).toBeDisabled()
    const join = card.getByRole('button', { name: '[ join waitlist ]' })
    await expect(join).toBeEnabled()
    await expect(card).toContainText('Join the seat waitlist and the next freed seat is yours.')
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await card.scrollIntoViewIfNeeded()
      await expectNoAxeViolations(page, `a full card at ${width} px`)
      await screenshot(page, `seat-waitlist-card-full-${width}`, card)
    }

    // Joining by keyboard: the place shows on the card, and a toast confirms it.
    await join.focus()
    await page.keyboard.press('Enter')
    await expect(toastWith(page, 'Joined the seat waitlist')).toContainText(
      "You're #1 in line for a freed seat.",
    )
    await expect(card).toContainText('#1 on the seat waitlist.')
    const leave = card.getByRole('button', { name: '[ leave waitlist ]' })
    await expect(leave).toBeEnabled()
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await card.scrollIntoViewIfNeeded()
      await expectNoAxeViolations(page, `a waitlisted card at ${width} px`)
      await screenshot(page, `seat-waitlist-card-waiting-${width}`, card)
    }

    // Another member gives their seat back from their own browser.
    const other = await browser.newContext({ baseURL: e2e.baseUrl })
    const otherPage = await other.newPage()
    await logIn(otherPage, holder.username, holder.password)
    const theirCard = otherPage.getByRole('article', { name: podclub.title })
    await theirCard.getByRole('button', { name: '[ cancel ]' }).click()
    await expect(toastWith(otherPage, 'Successfully canceled registration')).toBeVisible()
    // The freed seat went to the first in line at once: the podclub is full again.
    await expect(theirCard.getByRole('button', { name: '[ join waitlist ]' })).toBeVisible()
    await other.close()

    await page.reload()
    await expect(card).toContainText("You're registered, see you there!")
    await expect(card.getByRole('button', { name: '[ cancel ]' })).toBeEnabled()
    await expect(card.getByRole('button', { name: /waitlist/ })).toHaveCount(0)

    const mail = await waitForMail(
      (m) => m.to.includes(waiter.email) && m.subject.startsWith("You're in: a seat opened up for"),
      20_000,
    )
    expect(mail.subject).toContain(podclub.title)
    expect(mail.text).toContain(`${e2e.baseUrl}/podclubs/${podclub.id}`)
    const { filename, content: ics } = calendarAttachment(mail)
    expect(filename).toBe('invite.ics')
    expect(ics).toContain('BEGIN:VCALENDAR')
    expect(ics).toContain('METHOD:REQUEST')
    expect(ics).toContain('BEGIN:VEVENT')
    expect(ics.replace(/\r?\n[ \t]/g, '')).toContain(podclub.title)

    const cancelled = await waitForMail(
      (m) => m.to.includes(holder.email) && m.subject.startsWith('Seat cancelled:'),
    )
    expect(calendarAttachment(cancelled).content).toContain('METHOD:CANCEL')

    // The detail page offers the same calendar entry as a download.
    await page.goto(`/podclubs/${podclub.id}`)
    const download = page.waitForEvent('download')
    await page.getByRole('link', { name: 'add to calendar' }).click()
    expect((await download).suggestedFilename()).toBe(`podclub-${podclub.id}.ics`)
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await expectNoAxeViolations(page, `the detail page at ${width} px`)
    }
  })

  test("the profile's calendar link copies, resets, and the old one stops working", async ({
    page,
    context,
    playwright,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: e2e.baseUrl,
    })
    const member = await createMember(await playwright.request.newContext({ baseURL: e2e.baseUrl }))
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await logIn(page, member.username, member.password, '/profile')
    const section = page.getByRole('region', { name: 'calendar' })
    const field = section.getByLabel('your calendar link')
    await expect(field).toHaveValue(/\/calendar\/[^/]+\.ics$/)
    const oldUrl = await field.inputValue()
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await section.scrollIntoViewIfNeeded()
      await expectNoAxeViolations(page, `the profile's calendar section at ${width} px`)
      await screenshot(page, `profile-calendar-${width}`, section)
    }

    await section.getByRole('button', { name: 'copy link' }).click()
    await expect(toastWith(page, 'Calendar link copied')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(oldUrl)

    const feed = await page.request.get(oldUrl)
    expect(feed.status()).toBe(200)
    expect(await feed.text()).toContain('BEGIN:VCALENDAR')

    await section.getByRole('button', { name: 'reset link' }).click()
    await expect(toastWith(page, 'Calendar link reset')).toContainText(
      'The old link no longer works.',
    )
    await expect(field).not.toHaveValue(oldUrl)
    const newUrl = await field.inputValue()
    expect(newUrl).toMatch(/\/calendar\/[^/]+\.ics$/)
    expect((await page.request.get(oldUrl)).status()).toBe(404)
    expect((await page.request.get(newUrl)).status()).toBe(200)
    await expectNoAxeViolations(page, "the profile's calendar section after a reset")
  })
})
