import type { Page } from '@playwright/test'
import {
  addClubCalendar,
  clubDay,
  clubDateTimeOf,
  parseClubDateTime,
  prettyDate,
  prettyTime,
} from '../src/contract/club-time'
import { createMember, expect, expectNoAxeViolations, logIn, test } from './fixtures'

/** Where to save screenshots of the screens checked here; none are taken when unset. */
const SHOTS = process.env.E2E_SCREENSHOTS_DIR

const STEP_TITLES = [
  'Tell us about the podcast episode',
  'Add keywords and links',
  'Tell us more',
  'Schedule the discussion',
]

async function checkStep(page: Page, step: number) {
  await expect(page.getByText(`Step ${step} of 4`, { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: STEP_TITLES[step - 1] })).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/propose${step === 1 ? '' : `\\?step=${step}`}$`))
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await expectNoAxeViolations(page, `wizard step ${step} at ${width}px`)
    if (SHOTS)
      await page.screenshot({ path: `${SHOTS}/propose-step${step}-${width}.png`, fullPage: true })
  }
}

test.describe('propose wizard', () => {
  test('a member proposes through the four steps and finds the podclub', async ({
    page,
    request,
  }) => {
    const member = await createMember(request)
    // Its own title: the journey run again (--repeat-each) finds its own podclub, not the last.
    const title = `The Persuaders, part 2 ${Date.now().toString(36)}`
    await logIn(page, member.username, member.password, '/propose')
    await expect(page).toHaveURL(/\/propose$/)
    const next = page.getByRole('button', { name: 'Next' })
    const back = page.getByRole('button', { name: 'Back' })
    await expect(back).toBeDisabled()
    await checkStep(page, 1)

    // Step 1: a failed Next shows the spec's messages.
    await next.click()
    await expect(page.getByText('Episode title is required')).toBeVisible()
    await expect(page.getByText('Podcast name is required')).toBeVisible()
    await expect(page).not.toHaveURL(/step=2/)
    await page.getByLabel('episode title').fill(title)
    await expect(page.getByText('Episode title is required')).toHaveCount(0)
    await page.getByLabel('podcast name').fill('A Show Nobody Proposed Yet')
    await page.getByLabel('episode number (optional)').fill('42')
    await next.click()
    await checkStep(page, 2)

    // Step 2
    await next.click()
    for (const text of [
      'First keyword is required',
      'Second keyword is required',
      'Third keyword is required',
      'Must be a valid URL',
    ]) {
      await expect(page.getByText(text)).toBeVisible()
    }
    await page.getByLabel('keyword 1').fill('persuasion')
    await page.getByLabel('keyword 2').fill('media')
    await page.getByLabel('keyword 3').fill('trust')
    await page.getByLabel('link 1').fill('https://podcasts.apple.com/us/podcast/persuaders')
    await page.getByLabel('link 2 (optional)').fill('not a link')
    await next.click()
    await expect(page.getByText('Must be a valid URL')).toBeVisible()
    await page.getByLabel('link 2 (optional)').fill('')
    await expect(page.getByText('Must be a valid URL')).toHaveCount(0)

    // An accidental reload keeps the step and what was typed.
    await page.reload()
    await expect(page.getByLabel('keyword 2')).toHaveValue('media')
    await next.click()
    await checkStep(page, 3)

    // Step 3
    await page.getByLabel('episode description').fill('too short')
    await next.click()
    await expect(page.getByText('Description must be at least 50 characters long')).toBeVisible()
    await expect(
      page.getByText('Podmeister note must be at least 50 characters long'),
    ).toBeVisible()
    await page
      .getByLabel('episode description')
      .fill('How a small team of ad makers learned to sell anything, and what it cost them.')
    await page
      .getByLabel('podmeister note: why did you choose this episode?')
      .fill('It made me notice every pitch around me for a week, and I want to compare notes.')
    await next.click()
    await checkStep(page, 4)

    // Step 4: Back works, then Submit without a date fails as a whole.
    await back.click()
    await expect(page).toHaveURL(/step=3$/)
    await expect(page.getByLabel('episode description')).toHaveValue(/ad makers/)
    await next.click()
    const submit = page.getByRole('button', { name: 'Submit' })
    await expect(page.getByLabel('time (ET)')).toHaveValue('14:00')
    await expect(
      page.getByText('must be at least one month from today; all times are in Eastern Time (ET).'),
    ).toBeVisible()
    await submit.click()
    await expect(page.getByText('Validation Error', { exact: true })).toBeVisible()
    await expect(page.getByText('Please check all form fields.', { exact: true })).toBeVisible()
    await expect(page.getByText('Please select a date and time')).toBeVisible()

    const day = clubDay(addClubCalendar(new Date(), { months: 2 }))
    const startsAt = parseClubDateTime(clubDateTimeOf(day, '19:30')!)!
    await page.getByLabel('date', { exact: true }).fill(day)
    await page.getByLabel('time (ET)').selectOption('19:30')
    await expect(page.getByText('Please select a date and time')).toHaveCount(0)
    await page.getByRole('radio', { name: /NYC Office/ }).click()
    await submit.click()

    await expect(page.getByText('Success!', { exact: true })).toBeVisible()
    await expect(
      page.getByText('Your podcast episode has been submitted.', { exact: true }),
    ).toBeVisible()
    await expect(page).toHaveURL(/\/home$/)
    // The feed shows it at once (the cached list was refreshed by the proposal).
    const feed = page.getByRole('list', { name: 'Upcoming podclubs' })
    await expect(feed.getByRole('article', { name: title })).toBeVisible()

    // The new podclub is on the profile, hosted by the member, and opens on its page.
    await page.goto('/profile')
    const upcoming = page.getByRole('region', { name: 'upcoming podclubs' })
    await expect(upcoming.getByRole('heading', { name: title })).toBeVisible()
    // EST or EDT, as that day in New York has it.
    await expect(upcoming).toContainText(`${prettyDate(startsAt)} @ ${prettyTime(startsAt)}`)
    await upcoming.getByRole('link', { name: `view ${title}` }).click()
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(page.getByText('A Show Nobody Proposed Yet')).toBeVisible()
    await expect(page.getByText('NYC Office')).toBeVisible()
    const attendees = page.getByRole('region', { name: /member\(s\) attending/ })
    await expect(attendees.getByRole('listitem').first()).toContainText(member.username)

    // The form was cleared once sent.
    await page.goto('/propose')
    await expect(page.getByLabel('episode title')).toHaveValue('')
  })
})
