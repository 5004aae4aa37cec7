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
} from './fixtures'

test.describe('a live club', () => {
  test.describe.configure({ timeout: 90_000 })

  test("one member takes the last seat and the other's open card turns full; a seat given back comes to the waiting member's open page", async ({
    page,
    browser,
    playwright,
  }) => {
    const newContext = () => playwright.request.newContext({ baseURL: e2e.baseUrl })
    const [taker, waiter] = [
      await createMember(await newContext()),
      await createMember(await newContext()),
    ]
    // Eight seats held by demo members: one left.
    const podclub = await createPodclub(playwright, {
      title: `The Last Chair ${Date.now().toString(36)}`,
      seatHolders: DEMO_SEAT_FILLERS,
    })

    await page.emulateMedia({ reducedMotion: 'reduce' })
    await logIn(page, waiter.username, waiter.password)
    const card = page.getByRole('article', { name: podclub.title })
    await expect(card).toContainText('1 seat left')

    const other = await browser.newContext({ baseURL: e2e.baseUrl })
    const takerPage = await other.newPage()
    await takerPage.emulateMedia({ reducedMotion: 'reduce' })
    await logIn(takerPage, taker.username, taker.password)
    const takerCard = takerPage.getByRole('article', { name: podclub.title })
    await takerCard.getByRole('button', { name: '[ register ]' }).click()
    await expect(takerCard).toContainText("You're registered, see you there!")

    // The waiting member's page was not reloaded: the stream turned the card.
    await expect(card.getByRole('button', { name: '[ registration full ]' })).toBeDisabled({
      timeout: 3_000,
    })
    await expect(card).toContainText('No seats left')
    const join = card.getByRole('button', { name: '[ join waitlist ]' })
    await expect(join).toBeEnabled()
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await card.scrollIntoViewIfNeeded()
      await expectNoAxeViolations(page, `a card turned full live at ${width} px`)
    }

    await join.click()
    await expect(card).toContainText('#1 on the seat waitlist.')

    // The taker gives the seat back; it goes to the first in line, on their open page.
    await takerCard.getByRole('button', { name: '[ cancel ]' }).click()
    await expect(card).toContainText("You're registered, see you there!", { timeout: 3_000 })
    await expect(card.getByRole('button', { name: '[ cancel ]' })).toBeEnabled()
    await expect(toastWith(page, `You're in: a seat opened up for ${podclub.title}`)).toBeVisible()
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await card.scrollIntoViewIfNeeded()
      await expectNoAxeViolations(page, `a promotion shown live at ${width} px`)
    }
    await other.close()
  })
})
