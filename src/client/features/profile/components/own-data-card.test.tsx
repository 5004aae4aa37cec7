import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { okSchema } from '#contract/common'
import {
  getProfileResponseSchema,
  LAST_SUPERUSER_MESSAGE,
  type MyData,
  myDataSchema,
} from '#contract/profile'
import { envelope } from '#contract/common'
import { member } from '#client/testing/fixtures'
import { type Handlers, reply, replyError } from '#client/testing/mock-api'
import { queryToasts, renderWithProviders } from '#client/testing/render'

const profile = {
  user: {
    username: member.username,
    email: member.email,
    profile: {
      cred: 0,
      city: 'Queens',
      member_since: '2026-01-15T17:00:00.000Z',
      completed_podclub_count: 0,
      completed_podmeister_count: 0,
    },
  },
  upcoming_podclubs: [],
  past_podclubs: [],
  calendar_url: 'http://podclub.test/calendar/secret.ics',
}

const myData: MyData = {
  exported_at: '2027-01-04T15:00:00.000Z',
  account: {
    username: member.username,
    email: member.email,
    city: 'Queens',
    source: 'a friend',
    member_since: '2026-01-15T17:00:00.000Z',
    email_confirmed_at: null,
    is_superuser: false,
    blasts_unsubscribed_at: null,
  },
  seats: [],
  seat_waitlist: [],
  podclubs_hosted: [],
  hindsights: [
    {
      podclub_id: 4,
      episode_title: 'You 2.0',
      message: 'Still thinking',
      written_at: '2026-02-01T00:00:00.000Z',
    },
  ],
  votes: [],
  suggestions: [],
  feedback: [],
  emails: [],
}

function renderProfile(handlers: Handlers = {}) {
  return renderWithProviders({
    path: '/profile',
    currentUser: member,
    handlers: {
      getProfile: () => reply(getProfileResponseSchema, { data: profile }),
      ...handlers,
    },
  })
}

describe('download my data', () => {
  const saved: { name: string; blob: Blob }[] = []
  beforeEach(() => {
    saved.length = 0
    // jsdom has no object URLs and does not follow a download link: the file is caught here.
    const blobs = new Map<string, Blob>()
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${blobs.size}`
        blobs.set(url, blob)
        return url
      },
      revokeObjectURL: (url: string) => blobs.delete(url),
    })
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, blob: blobs.get(this.href)! })
    })
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it("saves the member's data, as the API gave it, in a JSON file named after them", async () => {
    const { api, user } = renderProfile({
      getMyData: () => reply(envelope(myDataSchema), { data: myData }),
    })
    await user.click(
      await screen.findByRole('button', { name: 'download my data' }, { timeout: 5000 }),
    )
    await waitFor(() => expect(saved).toHaveLength(1))
    expect(api.callsTo('getMyData')).toHaveLength(1)
    expect(saved[0]!.name).toBe(`podclub-data-${member.username}-2027-01-04.json`)
    expect(saved[0]!.blob.type).toBe('application/json')
    expect(JSON.parse(await saved[0]!.blob.text())).toEqual(myData)
  })

  it('says so when the data cannot be fetched, and saves nothing', async () => {
    const { user } = renderProfile({ getMyData: () => replyError(500) })
    await user.click(
      await screen.findByRole('button', { name: 'download my data' }, { timeout: 5000 }),
    )
    await waitFor(() => expect(queryToasts()).toHaveLength(1))
    expect(queryToasts()[0]).toHaveTextContent('Failed to download your data')
    expect(saved).toEqual([])
  })
})

describe('delete my account', () => {
  it('asks for the password in a dialog, puts a wrong one under the field, then deletes and goes Home', async () => {
    const { api, user, router } = renderProfile({
      deleteAccount: ({ body }) =>
        (body as { password?: string }).password === 'right one'
          ? reply(okSchema, { data: { ok: true } })
          : replyError(400, { password: ['Incorrect password.'] }),
    })
    await user.click(
      await screen.findByRole('button', { name: 'delete my account' }, { timeout: 5000 }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'delete my account' })
    expect(dialog).toHaveAccessibleDescription(/This cannot be undone/)
    const password = within(dialog).getByLabelText('password')
    expect(password).toHaveFocus()

    await user.type(password, 'wrong one')
    await user.click(within(dialog).getByRole('button', { name: 'delete my account' }))
    await waitFor(() => expect(password).toHaveAccessibleDescription('Incorrect password.'))
    expect(password).toHaveAttribute('aria-invalid', 'true')
    expect(router.state.location.pathname).toBe('/profile')

    await user.clear(password)
    await user.type(password, 'right one{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(api.callsTo('deleteAccount').map((c) => c.body)).toEqual([
      { password: 'wrong one' },
      { password: 'right one' },
    ])
    await waitFor(() =>
      expect(queryToasts().some((t) => /Account deleted/.test(t.textContent ?? ''))).toBe(true),
    )
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('says inside the dialog why a deletion was refused when no field is to blame', async () => {
    const { user } = renderProfile({
      deleteAccount: () => replyError(409, { detail: LAST_SUPERUSER_MESSAGE, code: 'CONFLICT' }),
    })
    await user.click(
      await screen.findByRole('button', { name: 'delete my account' }, { timeout: 5000 }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'delete my account' })
    await user.type(within(dialog).getByLabelText('password'), 'my password{Enter}')
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(LAST_SUPERUSER_MESSAGE)
    expect(within(dialog).getByLabelText('password')).not.toHaveAttribute('aria-invalid')
  })

  it('checks the password is there before asking, and Escape closes the dialog back to its button', async () => {
    const { api, user } = renderProfile()
    const open = await screen.findByRole('button', { name: 'delete my account' }, { timeout: 5000 })
    await user.click(open)
    const dialog = await screen.findByRole('dialog', { name: 'delete my account' })
    await user.click(within(dialog).getByRole('button', { name: 'delete my account' }))
    expect(await within(dialog).findByText('Password is required')).toBeVisible()
    expect(api.callsTo('deleteAccount')).toEqual([])

    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(open).toHaveFocus()
  })
})
