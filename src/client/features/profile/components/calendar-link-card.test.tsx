import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import {
  getProfileResponseSchema,
  resetCalendarLinkResponseSchema,
  type Profile,
} from '#contract/profile'
import { member } from '#client/testing/fixtures'
import { reply, replyError, type Handlers } from '#client/testing/mock-api'
import { queryToasts, renderWithProviders } from '#client/testing/render'

const OLD_URL = 'http://podclub.test/calendar/old-secret.ics'
const NEW_URL = 'http://podclub.test/calendar/new-secret.ics'

function profile(): Profile {
  return {
    user: {
      username: member.username,
      email: member.email,
      profile: {
        cred: 2,
        city: 'Brooklyn',
        member_since: '2026-01-15T17:00:00.000Z',
        completed_podclub_count: 1,
        completed_podmeister_count: 1,
      },
    },
    upcoming_podclubs: [],
    past_podclubs: [],
    calendar_url: OLD_URL,
  }
}

async function openProfile(handlers: Handlers = {}) {
  const view = renderWithProviders({
    path: '/profile',
    currentUser: member,
    handlers: {
      getProfile: () => reply(getProfileResponseSchema, { data: profile() }),
      ...handlers,
    },
  })
  const section = await screen.findByRole('region', { name: 'calendar' }, { timeout: 5000 })
  return { ...view, section, link: within(section).getByLabelText('your calendar link') }
}

describe("the profile's calendar section", () => {
  it('explains the secret link and shows it in a read-only field', async () => {
    const { section, link } = await openProfile()
    expect(section).toHaveTextContent(
      'Subscribe to your secret link from Google, Apple or Outlook calendar',
    )
    expect(section).toHaveTextContent('Anyone with the link sees your upcoming podclubs')
    expect(link).toHaveValue(OLD_URL)
    expect(link).toHaveAttribute('readonly')
    expect(link).toHaveAccessibleDescription(/Anyone with the link sees your upcoming podclubs/)
    expect(within(section).getByRole('list', { name: 'How to subscribe' })).toBeVisible()
  })

  it('copies the link to the clipboard and says so', async () => {
    const { section, user } = await openProfile()
    await user.click(within(section).getByRole('button', { name: 'copy link' }))
    expect(await navigator.clipboard.readText()).toBe(OLD_URL)
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Calendar link copied'))
  })

  it('selects the link for copying by hand when the clipboard refuses', async () => {
    const { section, link, user } = await openProfile()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('not allowed'))
    await user.click(within(section).getByRole('button', { name: 'copy link' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Copy the selected link'))
    expect(link).toHaveFocus()
    const input = link as HTMLInputElement
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, OLD_URL.length])
  })

  it('selects the link when there is no clipboard at all', async () => {
    const { section, link, user } = await openProfile()
    const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard')
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true })
    try {
      await user.click(within(section).getByRole('button', { name: 'copy link' }))
      await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Copy the selected link'))
      expect(link).toHaveFocus()
    } finally {
      if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard)
    }
  })

  it('resets the link: busy while it goes, then the new link and the warning', async () => {
    let answer: (value: ReturnType<typeof reply>) => void = () => {}
    const { section, link, user, api } = await openProfile({
      resetCalendarLink: () =>
        new Promise((resolve) => {
          answer = resolve
        }),
    })
    const reset = within(section).getByRole('button', { name: 'reset link' })
    await user.click(reset)
    await waitFor(() => expect(reset).toBeDisabled())
    expect(reset).toHaveAttribute('aria-busy', 'true')
    answer(reply(resetCalendarLinkResponseSchema, { data: { calendar_url: NEW_URL } }))
    await waitFor(() => expect(link).toHaveValue(NEW_URL))
    expect(reset).toBeEnabled()
    expect(queryToasts()[0]).toHaveTextContent('Calendar link reset')
    expect(queryToasts()[0]).toHaveTextContent('The old link no longer works.')
    expect(api.callsTo('resetCalendarLink')).toHaveLength(1)
  })

  it('keeps the old link and says why when the reset fails', async () => {
    const { section, link, user } = await openProfile({
      resetCalendarLink: () =>
        replyError(429, { detail: 'Too many requests. Please try again later.' }),
    })
    await user.click(within(section).getByRole('button', { name: 'reset link' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to reset calendar link'))
    expect(queryToasts()[0]).toHaveTextContent('Too many requests. Please try again later.')
    expect(link).toHaveValue(OLD_URL)
  })
})
