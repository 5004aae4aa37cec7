import { act, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { whoamiResponseSchema, type SessionUser } from '#contract/auth'
import {
  createHindsightResponseSchema,
  getPodclubDetailResponseSchema,
  type PodclubDetail,
} from '#contract/podclub-detail'
import { listPodclubsResponseSchema, registrationStateResponseSchema } from '#contract/podclubs'
import { podclubFixture } from '#client/features/podclubs/testing'
import { member, whoamiOf } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

function podclub(overrides: Partial<PodclubDetail> = {}): PodclubDetail {
  return {
    id: 7,
    status: 'completed',
    episode_title: 'The Cathedral',
    episode_number: '12',
    description: 'A talk.',
    podmeister_note: 'Why I chose it.',
    podmeister: { username: 'maya.r', profile: { cred: 4 } },
    starts_at: '2026-12-18T00:30:00.000Z',
    pretty_date: 'Thursday, December 17, 2026',
    pretty_time: '7:30 PM EST',
    location: 'zoom',
    seats_left: 8,
    keyword_one: 'attention',
    keyword_two: '',
    keyword_three: '',
    link_one: '',
    link_two: '',
    link_three: '',
    podcast: { name: 'Radiolab', picture_link: '' },
    api_registered_usernames: { reserved: [{ username: member.username, cred: 2 }] },
    waitlist_count: 0,
    seat_waitlist: { waiting: [] },
    links: [],
    hindsights: [{ username: 'maya.r', message: 'Great night.' }],
    chatlog: '',
    ...overrides,
  }
}

describe('the podclub detail page', () => {
  it('never sends a whitespace-only hindsight, and reloads the podclub after a post', async () => {
    let loads = 0
    const { user, api } = renderWithProviders({
      path: '/podclubs/7',
      currentUser: member,
      handlers: {
        getPodclubDetail: () => {
          loads += 1
          return reply(getPodclubDetailResponseSchema, { data: podclub() })
        },
        submitHindsight: (request) =>
          reply(
            createHindsightResponseSchema,
            {
              data: {
                username: member.username,
                message: String((request.body as { hindsight: string }).hindsight),
              },
            },
            201,
          ),
      },
    })
    // The card's code loads apart: its placeholder has the same heading, not the form.
    const post = await screen.findByRole(
      'button',
      { name: '[ post hindsight ]' },
      { timeout: 5000 },
    )
    expect(screen.getByRole('heading', { name: 'hindsights (1 / 20)' })).toBeVisible()
    // The chat log without entries is the short panel.
    expect(screen.getByRole('region', { name: 'zoom chat log entries' })).toHaveClass('h-[70px]')
    expect(post).toBeDisabled()
    await user.type(screen.getByLabelText('your hindsight'), '   ')
    expect(post).toBeDisabled()
    await user.type(screen.getByLabelText('your hindsight'), ' so good  ')
    await user.click(post)
    await waitFor(() => expect(loads).toBe(2))
    const [call] = api.callsTo('submitHindsight')
    expect(call?.body).toEqual({ hindsight: 'so good' })
    expect(queryToasts()[0]).toHaveTextContent('Hindsight submitted successfully')
  })

  it('hides the form once 20 hindsights exist', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => ({ username: 'x', message: `m${i}` }))
    renderWithProviders({
      path: '/podclubs/7',
      currentUser: member,
      handlers: {
        getPodclubDetail: () =>
          reply(getPodclubDetailResponseSchema, { data: podclub({ hindsights: twenty }) }),
      },
    })
    await screen.findByRole('heading', { name: 'hindsights (20 / 20)' })
    expect(screen.queryByLabelText('your hindsight')).not.toBeInTheDocument()
  })

  it('sends a non-attendee of a completed podclub home with the toast', async () => {
    const { hindsights: _h, chatlog: _c, ...withoutDiscussion } = podclub()
    const { router } = renderWithProviders({
      path: '/podclubs/7',
      currentUser: member,
      handlers: {
        getPodclubDetail: () => reply(getPodclubDetailResponseSchema, { data: withoutDiscussion }),
      },
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(queryToasts()[0]).toHaveTextContent('You are not a participant of this podclub')
    expect(queryToasts()[0]).toHaveTextContent(
      'You can only view the discussion if you were registered.',
    )
  })

  it('asks a logged-out attendee of a completed podclub to log in, and brings them back to it', async () => {
    let session: SessionUser | null = null
    const { hindsights: _h, chatlog: _c, ...withoutDiscussion } = podclub()
    const { user, router } = renderWithProviders({
      path: '/podclubs/7',
      handlers: {
        getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(session) }),
        login: () => {
          session = member
          return reply(whoamiResponseSchema, { data: whoamiOf(member) })
        },
        // The server shows the discussion to its attendees only.
        getPodclubDetail: () =>
          reply(getPodclubDetailResponseSchema, {
            data: session ? podclub() : withoutDiscussion,
          }),
      },
    })
    await findScreenTitle('login')
    expect(router.state.location.pathname).toBe('/login')
    expect(router.state.location.search).toBe('?next=%2Fpodclubs%2F7')
    expect(queryToasts()[0]).toHaveTextContent('Log in to see this discussion')
    expect(screen.queryByText('You are not a participant of this podclub')).toBeNull()

    await user.type(screen.getByLabelText('username'), member.username)
    await user.type(screen.getByLabelText('password'), 'a-password')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/podclubs/7'))
    expect(await screen.findByText('Great night.')).toBeVisible()
  })

  it("shows 'Failed to fetch podclub' when the podclub cannot load", async () => {
    renderWithProviders({
      path: '/podclubs/7',
      handlers: { getPodclubDetail: () => replyError(503, { detail: 'Try again soon.' }) },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch podclub')
    expect(screen.getByRole('alert')).toHaveTextContent('Try again soon.')
  })

  it('shows the not-found page, with the way home, for a podclub that does not exist', async () => {
    const { user, router } = renderWithProviders({
      path: '/podclubs/99999',
      handlers: { getPodclubDetail: () => replyError(404, { detail: 'podclub not found' }) },
    })
    await findScreenTitle('Page Not Found')
    expect(screen.queryByText('Failed to fetch podclub')).toBeNull()
    await user.click(screen.getByRole('link', { name: 'Go Home' }))
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })

  it('sends a visitor to log in, and brings them back to the podclub afterwards', async () => {
    let session: SessionUser | null = null
    const upcoming = podclub({
      status: 'upcoming',
      starts_at: '2099-01-01T00:00:00.000Z',
      api_registered_usernames: { reserved: [] },
      hindsights: undefined,
      chatlog: undefined,
    })
    const { user, router } = renderWithProviders({
      path: '/podclubs/7',
      handlers: {
        getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(session) }),
        login: () => {
          session = member
          return reply(whoamiResponseSchema, { data: whoamiOf(member) })
        },
        getPodclubDetail: () => reply(getPodclubDetailResponseSchema, { data: upcoming }),
      },
    })
    const details = await screen.findByRole('region', { name: 'details' })
    const login = within(details).getByRole('link', { name: '[ login to register ]' })
    expect(login).toHaveAttribute('href', '/login?next=%2Fpodclubs%2F7')

    await user.click(login)
    await findScreenTitle('login')
    await user.type(screen.getByLabelText('username'), member.username)
    await user.type(screen.getByLabelText('password'), 'a-password')
    await user.click(screen.getByRole('button', { name: '[ login ]' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/podclubs/7'))
    // Now a member holding no seat: the same place offers the seat itself.
    expect(
      await within(await screen.findByRole('region', { name: 'details' })).findByRole('button', {
        name: '[ register ]',
      }),
    ).toBeEnabled()
  })

  it('takes a seat from the detail page; the page and the feed both show it afterwards', async () => {
    let reserved: string[] = []
    const seatsLeft = () => 9 - reserved.length
    const first = podclubFixture({ id: 7, starts_at: '2099-01-01T00:00:00.000Z' })
    const card = () => ({
      ...first,
      seats_left: seatsLeft(),
      api_registered_usernames: { reserved },
    })
    const detail = () =>
      podclub({
        status: 'upcoming',
        starts_at: first.starts_at,
        hindsights: undefined,
        chatlog: undefined,
        seats_left: seatsLeft(),
        api_registered_usernames: {
          reserved: reserved.map((username) => ({ username, cred: 2 })),
        },
      })
    const { user, router } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [card()] }),
        getPodclubDetail: () => reply(getPodclubDetailResponseSchema, { data: detail() }),
        toggleRegistration: () => {
          reserved = [member.username]
          return reply(registrationStateResponseSchema, {
            data: { registered: true, seats_left: seatsLeft() },
          })
        },
      },
    })
    // The feed has been read once, so it sits in the cache while the detail page shows.
    const feedCard = await screen.findByRole('article', { name: first.episode_title })
    expect(within(feedCard).getByRole('button', { name: '[ register ]' })).toBeEnabled()

    await act(() => router.navigate('/podclubs/7'))
    const details = await screen.findByRole('region', { name: 'details' })
    expect(details).toHaveTextContent('9 seats left')
    await user.click(await within(details).findByRole('button', { name: '[ register ]' }))
    await waitFor(() =>
      expect(queryToasts()[0]).toHaveTextContent('Successfully registered for the podclub'),
    )
    expect(await within(details).findByText("You're registered, see you there!")).toBeVisible()
    expect(details).toHaveTextContent('8 seats left')
    expect(within(details).getByRole('button', { name: '[ cancel ]' })).toBeEnabled()

    await act(() => router.navigate('/home'))
    const reloaded = await screen.findByRole('article', { name: first.episode_title })
    expect(await within(reloaded).findByText("You're registered, see you there!")).toBeVisible()
    expect(reloaded).toHaveTextContent('8 seats left')
  })
})
