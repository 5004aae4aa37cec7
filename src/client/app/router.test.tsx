import { act, screen, waitFor } from '@testing-library/react'
import type { RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import { pageRoutes } from '#contract/pages'
import { member, superuser } from '#client/testing/fixtures'
import { replyError, type Handlers } from '#client/testing/mock-api'
import { createTestQueryClient, findScreenTitle, renderWithProviders } from '#client/testing/render'
import { createAppRoutes } from './router'

// The calls the screens make as they open; how they answer is their own tests' business.
const screenCalls: Handlers = {
  getPodclubDetail: () => replyError(503),
  getProfile: () => replyError(503),
  getProposalSuggestions: () => replyError(503),
}

describe('route table', () => {
  it("routes exactly the contract's page addresses (the server masks their secrets in its log)", () => {
    const paths = (routes: RouteObject[]): string[] =>
      routes.flatMap((r) => [...(r.path ? [r.path] : []), ...paths(r.children ?? [])])
    const routed = paths(createAppRoutes(createTestQueryClient(), 'browser')).filter(
      (p) => p !== '*',
    )
    expect(routed.sort()).toEqual(pageRoutes.map((page) => page.path).sort())
  })

  it.each([
    ['/', 'home'],
    ['/home', 'home'],
    ['/podclubs/12', 'podclub'],
    ['/about', 'about'],
    ['/login', 'login'],
    ['/register', 'register'],
    ['/register/WELCOME1', 'register'],
    ['/forgot-password', 'forgot password'],
    ['/password-reset/abc123', 'reset password'],
    ['/waitlist', 'waitlist'],
    ['/qr-invite', 'welcome to the club!'],
    ['/polls', 'No Poll Selected'],
    ['/unsubscribe/4/token', 'unsubscribe'],
    ['/no/such/page', 'Page Not Found'],
  ])('shows a visitor %s as "%s"', async (path, title) => {
    const { router } = renderWithProviders({ path, handlers: screenCalls })
    expect(await findScreenTitle()).toHaveTextContent(title)
    expect(router.state.location.pathname).toBe(path)
  })

  it.each([
    ['/profile', 'profile'],
    ['/propose', 'propose'],
  ])('shows a member %s', async (path, title) => {
    renderWithProviders({ path, currentUser: member, handlers: screenCalls })
    expect(await findScreenTitle()).toHaveTextContent(title)
  })

  it('tells the home screen when to skip the splash', async () => {
    const skipSplashAt = async (path: string) => {
      const { router, unmount } = renderWithProviders({ path })
      await findScreenTitle('home')
      const data = Object.values(router.state.loaderData).find(
        (value): value is { skipSplash: boolean } =>
          typeof value === 'object' && value !== null && 'skipSplash' in value,
      )
      unmount()
      return data?.skipSplash
    }
    expect(await skipSplashAt('/')).toBe(false)
    expect(await skipSplashAt('/?skipSplash=true')).toBe(true)
    expect(await skipSplashAt('/home')).toBe(true)
  })

  it('plays the splash once a visit: back to / and a reload show the page at once', async () => {
    const first = renderWithProviders({ path: '/' })
    await findScreenTitle('home')
    await first.user.click(screen.getByRole('button', { name: 'this way in' }))
    await waitFor(() => expect(screen.queryByTestId('splash')).not.toBeInTheDocument())
    await act(() => first.router.navigate('/about'))
    await findScreenTitle('about')
    await act(() => first.router.navigate(-1))
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/'))
    await findScreenTitle('home')
    expect(screen.queryByTestId('splash')).not.toBeInTheDocument()
    first.unmount()

    // A reload of the tab keeps its sessionStorage: still the same visit.
    renderWithProviders({ path: '/' })
    await findScreenTitle('home')
    expect(screen.queryByTestId('splash')).not.toBeInTheDocument()
  })

  it('loads the session once, before the first screen', async () => {
    const { api } = renderWithProviders({ path: '/about' })
    await findScreenTitle('about')
    expect(api.callsTo('getWhoami')).toHaveLength(1)
  })
})

describe('route guards', () => {
  it.each(['/profile', '/propose', '/controlpanel'])(
    'sends a visitor from %s to /home',
    async (path) => {
      const { router } = renderWithProviders({ path })
      await findScreenTitle('home')
      expect(router.state.location.pathname).toBe('/home')
    },
  )

  it.each(['/login', '/register', '/register/CODE', '/forgot-password', '/password-reset/tok'])(
    'sends a logged-in user from %s to /home',
    async (path) => {
      const { router } = renderWithProviders({ path, currentUser: member })
      await findScreenTitle('home')
      expect(router.state.location.pathname).toBe('/home')
    },
  )

  it('sends a member who is not a super user from /controlpanel to /home', async () => {
    const { router } = renderWithProviders({ path: '/controlpanel', currentUser: member })
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })

  it('lets a super user into the control panel', async () => {
    const { router } = renderWithProviders({
      path: '/controlpanel',
      currentUser: superuser,
      // The panel loads its data; a refusal is enough here and shows as the panel's error.
      handlers: { getControlPanel: () => replyError(503) },
    })
    expect(await findScreenTitle()).toHaveTextContent('control panel')
    expect(router.state.location.pathname).toBe('/controlpanel')
  })

  it('guards in-app navigation too, not only the first load', async () => {
    const { router } = renderWithProviders({ path: '/about' })
    await findScreenTitle('about')
    await router.navigate('/profile')
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})

describe('old-style links', () => {
  it("rewrites '#/signup/CODE' to /register/CODE", async () => {
    const { router } = renderWithProviders({ path: '/#/signup/WELCOME42' })
    expect(await findScreenTitle()).toHaveTextContent('register')
    await waitFor(() => expect(router.state.location.pathname).toBe('/register/WELCOME42'))
    expect(router.state.location.hash).toBe('')
  })

  it('leaves other hashes alone', async () => {
    const { router } = renderWithProviders({ path: '/about#contact' })
    await findScreenTitle('about')
    expect(router.state.location).toMatchObject({ pathname: '/about', hash: '#contact' })
  })
})

describe('not-found page', () => {
  it.each([
    '/podclubs/abc',
    '/podclubs/0',
    '/podclubs/1e3',
    '/podclubs/12.5',
    '/podclubs/99999999999',
    '/polls/abc',
    '/polls/abc/SOMECODE',
    '/polls/-3',
  ])('shows %s, whose id cannot be one, as not found without asking the API', async (path) => {
    const { api, user, router } = renderWithProviders({ path, handlers: screenCalls })
    expect(await findScreenTitle()).toHaveTextContent('Page Not Found')
    expect(api.callsTo('getPodclubDetail')).toHaveLength(0)
    expect(api.callsTo('getPoll')).toHaveLength(0)
    expect(api.callsTo('getPollWithCode')).toHaveLength(0)
    await user.click(screen.getByRole('link', { name: 'Go Home' }))
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })

  it("offers a 'Go Home' link to /home", async () => {
    const { router, user } = renderWithProviders({ path: '/nowhere' })
    expect(await findScreenTitle()).toHaveTextContent('Page Not Found')
    await user.click(screen.getByRole('link', { name: 'Go Home' }))
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})
