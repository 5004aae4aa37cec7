import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { getPublicConfigResponseSchema } from '#contract/config'
import {
  registrationStateResponseSchema,
  seatWaitlistStateResponseSchema,
} from '#contract/podclubs'
import { AppProvider } from '#client/app/provider'
import { mockApi, reply, replyError, type Handlers, type MockReply } from '#client/testing/mock-api'
import { createTestQueryClient, queryToasts, testPublicConfig } from '#client/testing/render'
import { podclubFixture } from '../testing'
import { SeatAction, type SeatPodclub } from './seat-action'

/** The seat action alone, at `path`, with toasts and the settings call answered. */
function renderSeat(
  podclub: SeatPodclub,
  username: string | null,
  { handlers = {}, path = '/podclubs/7' }: { handlers?: Handlers; path?: string } = {},
) {
  const api = mockApi({
    getPublicConfig: () => reply(getPublicConfigResponseSchema, { data: testPublicConfig }),
    ...handlers,
  })
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <section aria-label="seat">
            <SeatAction podclub={podclub} username={username} />
          </section>
        ),
      },
    ],
    { initialEntries: [path] },
  )
  const view = render(
    <AppProvider queryClient={createTestQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return {
    ...view,
    api,
    user: userEvent.setup(),
    seat: within(screen.getByRole('region', { name: 'seat' })),
  }
}

/** The detail page's shape of a reserved list: objects with a username (and cred). */
function asDetail(podclub: SeatPodclub, reserved: string[]): SeatPodclub {
  return {
    ...podclub,
    api_registered_usernames: { reserved: reserved.map((username) => ({ username, cred: 1 })) },
  }
}

const full = (waiting: string[]) =>
  podclubFixture({ seats_left: 0, waitlist_count: waiting.length, seat_waitlist: { waiting } })

describe('the seat action', () => {
  it('sends a visitor to log in and back to this page', () => {
    const { seat } = renderSeat(podclubFixture({ id: 7 }), null, { path: '/podclubs/7?from=x' })
    expect(seat.getByRole('link', { name: '[ login to register ]' })).toHaveAttribute(
      'href',
      '/login?next=%2Fpodclubs%2F7%3Ffrom%3Dx',
    )
    expect(seat.queryByRole('button')).toBeNull()
  })

  it('lets a member register, with a key per press, and says so', async () => {
    const podclub = podclubFixture({ id: 7 })
    const { seat, user, api } = renderSeat(podclub, 'ada', {
      handlers: {
        toggleRegistration: () =>
          reply(registrationStateResponseSchema, { data: { registered: true, seats_left: 8 } }),
      },
    })
    await user.click(seat.getByRole('button', { name: '[ register ]' }))
    await waitFor(() =>
      expect(queryToasts()[0]).toHaveTextContent('Successfully registered for the podclub'),
    )
    const [call] = api.callsTo('toggleRegistration')
    expect(call?.path).toBe('/register/7/')
    expect(call?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/)
  })

  it("says 'Registration failed' with the server's reason", async () => {
    const { seat, user } = renderSeat(podclubFixture(), 'ada', {
      handlers: { toggleRegistration: () => replyError(409, { detail: 'No seats left.' }) },
    })
    await user.click(seat.getByRole('button', { name: '[ register ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Registration failed'))
    expect(queryToasts()[0]).toHaveTextContent('No seats left.')
  })

  it('disables the button, with a spinner, while the call is on its way', async () => {
    let answer: (value: MockReply) => void = () => {}
    const { seat, user } = renderSeat(podclubFixture(), 'ada', {
      handlers: { toggleRegistration: () => new Promise((resolve) => (answer = resolve)) },
    })
    const button = seat.getByRole('button', { name: '[ register ]' })
    await user.click(button)
    await waitFor(() => expect(button).toBeDisabled())
    expect(button).toHaveAttribute('aria-busy', 'true')
    answer(reply(registrationStateResponseSchema, { data: { registered: true, seats_left: 8 } }))
    await waitFor(() => expect(button).toBeEnabled())
  })

  it.each([
    ['the card', (p: SeatPodclub) => ({ ...p, api_registered_usernames: { reserved: ['ada'] } })],
    ['the detail page', (p: SeatPodclub) => asDetail(p, ['ada'])],
  ])(
    "tells a registered member they are in, with share and cancel (%s's shape)",
    async (_, registered) => {
      const podclub = registered(podclubFixture({ id: 7 }))
      const { seat, user } = renderSeat(podclub, 'ada', {
        handlers: {
          toggleRegistration: () =>
            reply(registrationStateResponseSchema, { data: { registered: false, seats_left: 9 } }),
        },
      })
      expect(seat.getByText("You're registered, see you there!")).toBeVisible()
      const share = seat.getByRole('link', { name: '[ share to x ]' })
      await waitFor(() =>
        expect(decodeURIComponent(share.getAttribute('href')!)).toContain(
          `${testPublicConfig.app_url}/podclubs/7`,
        ),
      )
      expect(decodeURIComponent(share.getAttribute('href')!)).toContain(
        testPublicConfig.club_invite_code,
      )
      await user.click(seat.getByRole('button', { name: '[ cancel ]' }))
      await waitFor(() =>
        expect(queryToasts()[0]).toHaveTextContent('Successfully canceled registration'),
      )
    },
  )

  it("says 'Failed to cancel registration' when a cancel is refused", async () => {
    const { seat, user } = renderSeat(asDetail(podclubFixture(), ['ada']), 'ada', {
      handlers: {
        toggleRegistration: () => replyError(409, { detail: 'This podclub has already started.' }),
      },
    })
    await user.click(seat.getByRole('button', { name: '[ cancel ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to cancel registration'))
    expect(queryToasts()[0]).toHaveTextContent('This podclub has already started.')
  })

  it("shows a full podclub as '[ registration full ]' and offers its seat waitlist", async () => {
    const { seat, user, api } = renderSeat(full(['bo', 'cy', 'di']), 'ada', {
      handlers: {
        toggleSeatWaitlist: () =>
          reply(seatWaitlistStateResponseSchema, { data: { waitlisted: true, position: 4 } }),
      },
    })
    expect(seat.getByRole('button', { name: '[ registration full ]' })).toBeDisabled()
    const join = seat.getByRole('button', { name: '[ join waitlist ]' })
    expect(join).toHaveAccessibleDescription(
      '3 on the seat waitlist. Join and a freed seat comes to you in turn.',
    )
    await user.click(join)
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Joined the seat waitlist'))
    expect(queryToasts()[0]).toHaveTextContent("You're #4 in line for a freed seat.")
    expect(api.callsTo('toggleRegistration')).toHaveLength(0)
  })

  it('invites the first one in when nobody waits yet', () => {
    const { seat } = renderSeat(full([]), 'ada')
    expect(seat.getByRole('button', { name: '[ join waitlist ]' })).toHaveAccessibleDescription(
      'Join the seat waitlist and the next freed seat is yours.',
    )
  })

  it('does not read out how many others wait, which changes live', () => {
    const { seat } = renderSeat(full(['bo', 'cy']), 'ada')
    const note = seat.getByText(
      '2 on the seat waitlist. Join and a freed seat comes to you in turn.',
    )
    expect(note).toHaveAttribute('aria-live', 'off')
  })

  it("shows a waiting member's place, politely announced, and lets them leave", async () => {
    const { seat, user } = renderSeat(full(['bo', 'ada', 'cy']), 'ada', {
      handlers: {
        toggleSeatWaitlist: () =>
          reply(seatWaitlistStateResponseSchema, { data: { waitlisted: false, position: null } }),
      },
    })
    const place = seat.getByText('#2 on the seat waitlist.')
    expect(place.closest('[aria-live]')).toHaveAttribute('aria-live', 'polite')
    expect(seat.queryByRole('button', { name: '[ join waitlist ]' })).toBeNull()
    await user.click(seat.getByRole('button', { name: '[ leave waitlist ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Left the seat waitlist'))
  })

  it('offers the seat waitlist to nobody but a member without a seat', () => {
    const cases: [string | null, SeatPodclub][] = [
      [null, full(['bo'])],
      ['host.one', full(['bo'])],
      ['ada', asDetail(full(['bo']), ['ada'])],
    ]
    for (const [username, podclub] of cases) {
      const { seat, unmount } = renderSeat(podclub, username)
      expect(seat.queryByRole('button', { name: /waitlist/ })).toBeNull()
      expect(screen.getByRole('region', { name: 'seat' })).not.toHaveTextContent('seat waitlist')
      unmount()
    }
  })

  it('offers no seat changes once the podclub has started', () => {
    const started = podclubFixture({ starts_at: new Date(Date.now() - 60_000).toISOString() })
    const first = renderSeat(started, 'ada')
    expect(first.seat.queryByRole('button')).toBeNull()
    expect(
      first.seat.getByText('This podclub has started: seats can no longer change.'),
    ).toBeVisible()
    first.unmount()
    const seated = renderSeat(asDetail(started, ['ada']), 'ada')
    expect(seated.seat.queryByRole('button', { name: '[ cancel ]' })).toBeNull()
    expect(seated.seat.getByText("It's on now: you have a seat, see you there!")).toBeVisible()
  })

  it('stops offering seat changes at the start, on a page left open', async () => {
    const soon = podclubFixture({ starts_at: new Date(Date.now() + 1_000).toISOString() })
    const { seat } = renderSeat(soon, 'ada')
    expect(seat.getByRole('button', { name: '[ register ]' })).toBeEnabled()
    expect(
      await seat.findByText(
        'This podclub has started: seats can no longer change.',
        {},
        { timeout: 3_000 },
      ),
    ).toBeVisible()
    expect(seat.queryByRole('button')).toBeNull()
  })

  it('does not offer the podmeister a seat', () => {
    const { seat } = renderSeat(podclubFixture(), 'host.one')
    expect(seat.getByText("You're the podmeister of this one.")).toBeVisible()
    expect(seat.queryByRole('button', { name: /register|cancel/ })).toBeNull()
  })

  it('offers nothing on a completed or cancelled podclub', () => {
    for (const status of ['completed', 'cancelled'] as const) {
      for (const username of [null, 'ada']) {
        const { unmount } = renderSeat(podclubFixture({ status }), username)
        expect(screen.getByRole('region', { name: 'seat' })).toBeEmptyDOMElement()
        unmount()
      }
    }
  })
})
