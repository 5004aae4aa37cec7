import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { getPublicConfigResponseSchema } from '#contract/config'
import { createInviteResponseSchema } from '#contract/invites'
import {
  getRandomPastPodclubResponseSchema,
  getSplashResponseSchema,
  listPodclubsResponseSchema,
  registrationStateResponseSchema,
  type Podclub,
} from '#contract/podclubs'
import { createdSchema } from '#contract/suggestions'
import { podclubFixture } from '#client/features/podclubs/testing'
import { member } from '#client/testing/fixtures'
import { reply, replyError, type Handlers } from '#client/testing/mock-api'
import {
  findScreenTitle,
  findToast,
  queryToasts,
  renderWithProviders,
  testPublicConfig,
} from '#client/testing/render'

function handlers(podclubs: () => Podclub[]): Handlers {
  return {
    listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: podclubs() }),
    getPublicConfig: () =>
      reply(getPublicConfigResponseSchema, {
        data: {
          ...testPublicConfig,
          club_invite_code: 'club-code',
          app_url: 'https://podclub.test',
        },
      }),
    getSplashStats: () =>
      reply(getSplashResponseSchema, {
        data: { member_count: 312, completed_podclub_count: 48, cities_count: 27 },
      }),
    getRandomPastPodclub: () => reply(getRandomPastPodclubResponseSchema, { data: null }),
  }
}

describe('the home feed', () => {
  it('shows a visitor the podclubs between join, about, stats, testimonial and archive cards', async () => {
    const podclubs = [podclubFixture(), podclubFixture()]
    renderWithProviders({ path: '/home', handlers: handlers(() => podclubs) })
    await findScreenTitle('home')
    const feed = await screen.findByRole('list', { name: 'Upcoming podclubs' })
    const items = within(feed)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === feed)
    expect(items).toHaveLength(8)
    expect(within(items[0]!).getByRole('link', { name: '[ join the club ]' })).toHaveAttribute(
      'href',
      '/register',
    )
    expect(within(items[1]!).getByRole('article')).toHaveTextContent(podclubs[0]!.episode_title)
    expect(within(items[7]!).getByRole('img', { name: /thinking/ })).toBeVisible()
    expect(await screen.findByText('312')).toBeVisible()
  })

  it('shows the error with Try Again, which loads the list', async () => {
    let fail = true
    const { api, user } = renderWithProviders({
      path: '/home',
      handlers: {
        ...handlers(() => [podclubFixture()]),
        listUpcomingPodclubs: () =>
          fail
            ? replyError(500, { detail: 'boom' })
            : reply(listPodclubsResponseSchema, {
                data: [podclubFixture({ episode_title: 'Back' })],
              }),
      },
    })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load podclubs. Please try again later.')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }))
    expect(await screen.findByRole('heading', { name: 'Back' })).toBeVisible()
    expect(api.callsTo('listUpcomingPodclubs').length).toBeGreaterThanOrEqual(2)
  })

  it('registers a member, says so, and reloads the feed with the new seat count', async () => {
    let podclub = podclubFixture({ seats_left: 3 })
    const { api, user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        ...handlers(() => [podclub]),
        toggleRegistration: () => {
          podclub = {
            ...podclub,
            seats_left: 2,
            api_registered_usernames: { reserved: [member.username] },
          }
          return reply(registrationStateResponseSchema, {
            data: { registered: true, seats_left: 2 },
          })
        },
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    expect(card).toHaveTextContent('3 seats left')
    await user.click(within(card).getByRole('button', { name: '[ register ]' }))
    await waitFor(() => expect(card).toHaveTextContent('2 seats left'))
    expect(card).toHaveTextContent("You're registered, see you there!")
    expect(await findToast()).toHaveTextContent('Successfully registered for the podclub')
    expect(api.callsTo('toggleRegistration')).toHaveLength(1)
  })

  it('shows the server message when registering fails', async () => {
    const podclub = podclubFixture()
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        ...handlers(() => [podclub]),
        toggleRegistration: () =>
          replyError(409, { detail: 'No seats left', code: 'NO_SEATS_LEFT' }),
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    await user.click(within(card).getByRole('button', { name: '[ register ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Registration failed'))
    expect(queryToasts()[0]).toHaveTextContent('No seats left')
  })

  it('lets a member suggest a podcast: rules under the field, then the thank-you toast', async () => {
    const { api, user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        ...handlers(() => []),
        suggestPodcast: () => reply(createdSchema, { data: { id: 1 } }, 201),
      },
    })
    const link = await screen.findByLabelText('Podcast episode link')
    await user.type(link, 'nope')
    expect(await screen.findByText('Please enter a valid podcast episode URL')).toBeVisible()
    await user.clear(link)
    await user.type(link, 'https://example.com/episode/9')
    await user.click(screen.getByRole('button', { name: '[ suggest ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Podcast Suggested!'))
    expect(api.callsTo('suggestPodcast')[0]?.body).toEqual({
      podcastLink: 'https://example.com/episode/9',
      reason: '',
    })
    expect(link).toHaveValue('')
  })

  it('sends an invite without an empty note', async () => {
    const { api, user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        ...handlers(() => []),
        sendInvite: () => reply(createInviteResponseSchema, { data: { sent: true } }),
      },
    })
    await user.type(await screen.findByLabelText('Their e-mail'), 'friend@example.com')
    await user.click(screen.getByRole('button', { name: '[ send invite ]' }))
    await waitFor(() => expect(api.callsTo('sendInvite')).toHaveLength(1))
    const body = api.callsTo('sendInvite')[0]?.body as Record<string, unknown>
    expect(body.email).toBe('friend@example.com')
    expect('note' in body).toBe(false)
  })
})
