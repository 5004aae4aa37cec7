import { act, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { whoamiResponseSchema } from '#contract/auth'
import { listPodclubsResponseSchema } from '#contract/podclubs'
import { getProfileEndpoint } from '#contract/profile'
import { podclubFixture } from '#client/features/podclubs/testing'
import { member, whoamiOf } from '#client/testing/fixtures'
import { networkError, reply, replyError, type MockReply } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'
import { callApi } from './api-client'
import { refreshUser, whoamiQueryOptions } from './auth'

/** The profile screen's own call, answered as a failure: these tests are about whoami. */
const profileScreen = { getProfile: () => replyError(503) }

describe('session', () => {
  it('treats a failed whoami as a visitor', async () => {
    const { router } = renderWithProviders({
      path: '/profile',
      handlers: { getWhoami: () => networkError(), ...profileScreen },
    })
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    expect(
      within(screen.getByRole('banner')).getByRole('link', { name: '[ login ]' }),
    ).toBeInTheDocument()
  })

  const failures: [string, () => MockReply][] = [
    ['a network error', () => networkError()],
    ['a 500', () => replyError(500, { detail: 'Internal server error. Please try again later.' })],
  ]

  it.each(failures)('asks whoami again on the next navigation after %s', async (_, failure) => {
    let answer = failure
    const { api, router } = renderWithProviders({
      path: '/home',
      handlers: { getWhoami: () => answer(), ...profileScreen },
    })
    await findScreenTitle('home')
    const banner = within(screen.getByRole('banner'))
    expect(banner.getByRole('link', { name: '[ login ]' })).toBeInTheDocument()
    const asked = api.callsTo('getWhoami').length

    // The server is back and the member's session never ended: the blip must not log them out.
    answer = () => reply(whoamiResponseSchema, { data: whoamiOf(member) })
    await act(() => router.navigate('/profile'))

    await findScreenTitle('profile')
    expect(router.state.location.pathname).toBe('/profile')
    expect(api.callsTo('getWhoami').length).toBeGreaterThan(asked)
    expect(banner.queryByRole('link', { name: '[ login ]' })).not.toBeInTheDocument()
  })

  it('asks whoami again on the next navigation when it fails right after login', async () => {
    const { api, queryClient, router } = renderWithProviders({
      path: '/home',
      handlers: profileScreen,
    })
    await findScreenTitle('home')

    // Logged in on the server, but the whoami that follows the login fails.
    api.on('getWhoami', () => networkError())
    let refreshed: Awaited<ReturnType<typeof refreshUser>> | undefined
    await act(async () => {
      refreshed = await refreshUser(queryClient)
    })
    expect(refreshed).toBeNull()

    api.on('getWhoami', () => reply(whoamiResponseSchema, { data: whoamiOf(member) }))
    await act(() => router.navigate('/profile'))
    await findScreenTitle('profile')
    expect(router.state.location.pathname).toBe('/profile')
  })

  it('asks whoami again when the tab comes back after a failure, and not after a success', async () => {
    let answer = () => networkError()
    const { api } = renderWithProviders({
      path: '/home',
      handlers: { getWhoami: () => answer(), ...profileScreen },
    })
    await findScreenTitle('home')
    const banner = within(screen.getByRole('banner'))
    expect(banner.getByRole('link', { name: '[ login ]' })).toBeInTheDocument()

    answer = () => reply(whoamiResponseSchema, { data: whoamiOf(member) })
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'))
    })
    await vi.waitFor(() =>
      expect(banner.queryByRole('link', { name: '[ login ]' })).not.toBeInTheDocument(),
    )

    // A known answer stays cached: coming back again does not ask.
    const asked = api.callsTo('getWhoami').length
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'))
    })
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)))
    expect(api.callsTo('getWhoami')).toHaveLength(asked)
  })

  it("on a 401 clears the user, goes Home and says 'Session expired. Please login again.'", async () => {
    const { router, queryClient } = renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: { getProfile: () => replyError(401, { detail: 'Not logged in' }) },
    })
    await findScreenTitle('profile')

    await act(() => callApi(getProfileEndpoint).catch(() => undefined))

    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    expect(queryClient.getQueryData(whoamiQueryOptions().queryKey)).toEqual({
      isAuthenticated: false,
      user: null,
    })
    expect(
      within(screen.getByRole('banner')).getByRole('link', { name: '[ login ]' }),
    ).toBeInTheDocument()
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Session expired. Please login again.')
  })

  it('keeps the user on a 403', async () => {
    const { router } = renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: { getProfile: () => replyError(403) },
    })
    await findScreenTitle('profile')
    await act(() => callApi(getProfileEndpoint).catch(() => undefined))
    expect(router.state.location.pathname).toBe('/profile')
    expect(queryToasts()).toHaveLength(0)
  })

  describe('an action answered 401', () => {
    it('says the session ended, once, instead of the failure of the action', async () => {
      const podclub = podclubFixture({ starts_at: '2099-01-01T00:00:00.000Z' })
      const { user, router } = renderWithProviders({
        path: '/home',
        currentUser: member,
        handlers: {
          listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
          toggleRegistration: () =>
            replyError(401, { detail: 'Authentication credentials were not provided.' }),
        },
      })
      const card = await screen.findByRole('article', { name: podclub.episode_title })
      await user.click(within(card).getByRole('button', { name: '[ register ]' }))

      await vi.waitFor(() =>
        expect(queryToasts()[0]).toHaveTextContent('Session expired. Please login again.'),
      )
      // Long enough for the action's own failure toast to have come and gone.
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
      const toasts = queryToasts()
      expect(toasts).toHaveLength(1)
      expect(toasts[0]).toHaveTextContent('Session expired. Please login again.')
      expect(toasts[0]).not.toHaveTextContent('Registration failed')
      expect(toasts[0]).not.toHaveTextContent('Authentication credentials were not provided.')

      // Its link leads to the login screen, which comes back here afterwards.
      const login = within(toasts[0]!).getByRole('link', { name: '[ login ]' })
      expect(login).toHaveAttribute('href', '/login?next=%2Fhome')
      await user.click(login)
      await findScreenTitle('login')
      expect(router.state.location.search).toBe('?next=%2Fhome')
      await vi.waitFor(() => expect(queryToasts()).toHaveLength(0))
    })

    it('offers to log in back to the page the member was on, and says it once for many 401s', async () => {
      const { router } = renderWithProviders({
        path: '/profile',
        currentUser: member,
        handlers: { getProfile: () => replyError(401) },
      })
      await findScreenTitle('profile')
      await act(() =>
        Promise.all([
          callApi(getProfileEndpoint).catch(() => undefined),
          callApi(getProfileEndpoint).catch(() => undefined),
        ]),
      )
      await findScreenTitle('home')
      expect(router.state.location.pathname).toBe('/home')
      const toasts = queryToasts()
      expect(toasts).toHaveLength(1)
      expect(within(toasts[0]!).getByRole('link', { name: '[ login ]' })).toHaveAttribute(
        'href',
        '/login?next=%2Fprofile',
      )
    })
  })
})
