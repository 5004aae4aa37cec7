import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { okSchema } from '#contract/common'
import { member, superuser } from '#client/testing/fixtures'
import { networkError, reply, replyError, type MockReply } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

function banner() {
  return within(screen.getByRole('banner'))
}

describe('header', () => {
  it("shows a visitor '[ login ]' and '[ register ]', and no member menu", async () => {
    renderWithProviders({ path: '/about' })
    await findScreenTitle('about')

    expect(banner().getByRole('link', { name: 'podclub.' })).toHaveAttribute('href', '/home')
    expect(banner().getByRole('link', { name: '[ login ]' })).toHaveAttribute('href', '/login')
    expect(banner().getByRole('link', { name: '[ register ]' })).toHaveAttribute(
      'href',
      '/register',
    )
    expect(banner().queryByRole('link', { name: '[ control panel ]' })).not.toBeInTheDocument()
    expect(banner().queryByRole('button', { name: member.username })).not.toBeInTheDocument()
  })

  it("holds the visitor links in a '[ menu ]' for small screens", async () => {
    const { user } = renderWithProviders({ path: '/about' })
    await findScreenTitle('about')

    await user.click(banner().getByRole('button', { name: '[ menu ]' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByRole('menuitem', { name: '[ login ]' })).toHaveAttribute(
      'href',
      '/login',
    )
    expect(within(menu).getByRole('menuitem', { name: '[ register ]' })).toHaveAttribute(
      'href',
      '/register',
    )
  })

  it('gives a member a menu labelled with their username', async () => {
    const { user, router } = renderWithProviders({ path: '/about', currentUser: member })
    await findScreenTitle('about')

    expect(banner().queryByRole('link', { name: '[ login ]' })).not.toBeInTheDocument()
    expect(banner().queryByRole('link', { name: '[ control panel ]' })).not.toBeInTheDocument()

    await user.click(banner().getByRole('button', { name: member.username }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getByRole('menuitem', { name: '[ profile ]' })).toHaveAttribute(
      'href',
      '/profile',
    )
    expect(within(menu).getByRole('menuitem', { name: '[ logout ]' })).toBeInTheDocument()

    await user.click(within(menu).getByRole('menuitem', { name: '[ invite friends ]' }))
    await findScreenTitle('welcome to the club!')
    expect(router.state.location.pathname).toBe('/qr-invite')
  })

  it("shows a super user '[ control panel ]'", async () => {
    const { user, router } = renderWithProviders({
      path: '/home',
      currentUser: superuser,
      // The panel loads its data on arrival; a refusal is enough for this test.
      handlers: { getControlPanel: () => replyError(503) },
    })
    await findScreenTitle('home')

    await user.click(banner().getByRole('link', { name: '[ control panel ]' }))
    await findScreenTitle('control panel')
    expect(router.state.location.pathname).toBe('/controlpanel')
    expect(banner().getByRole('button', { name: superuser.username })).toBeInTheDocument()
  })

  it('goes home without the splash from the brand', async () => {
    const { user, router } = renderWithProviders({ path: '/about' })
    await findScreenTitle('about')
    await user.click(banner().getByRole('link', { name: 'podclub.' }))
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})

describe('logout', () => {
  it('clears the user and goes to /home', async () => {
    const { user, router, api } = renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: {
        logout: () => reply(okSchema, { data: { ok: true } }),
        getProfile: () => replyError(503),
      },
    })
    await findScreenTitle('profile')

    await user.click(banner().getByRole('button', { name: member.username }))
    await user.click(await screen.findByRole('menuitem', { name: '[ logout ]' }))

    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    expect(banner().getByRole('link', { name: '[ login ]' })).toBeInTheDocument()
    expect(api.callsTo('logout')).toHaveLength(1)
    expect(queryToasts()).toHaveLength(0)
  })

  const failures: [string, () => MockReply][] = [
    ['no answer', () => networkError()],
    ['a 503', () => replyError(503, { detail: 'Service unavailable.' })],
  ]

  it.each(failures)(
    "stays logged in when the server gets %s twice, and says 'Failed to Logout'",
    async (_, failure) => {
      const { user, router, api } = renderWithProviders({
        path: '/profile',
        currentUser: member,
        handlers: { logout: failure, getProfile: () => replyError(503) },
      })
      await findScreenTitle('profile')

      await user.click(banner().getByRole('button', { name: member.username }))
      await user.click(await screen.findByRole('menuitem', { name: '[ logout ]' }))

      // Tried once more, then reported: the session may well live on at the server.
      await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to Logout'), {
        timeout: 5_000,
      })
      expect(queryToasts()[0]).toHaveTextContent('You are still logged in.')
      expect(api.callsTo('logout')).toHaveLength(2)
      expect(router.state.location.pathname).toBe('/profile')
      expect(banner().getByRole('button', { name: member.username })).toBeInTheDocument()
      expect(banner().queryByRole('link', { name: '[ login ]' })).not.toBeInTheDocument()

      // The guard still sees the member.
      await act(() => router.navigate('/about'))
      await act(() => router.navigate('/profile'))
      expect(router.state.location.pathname).toBe('/profile')
    },
  )

  it('logs out when the second try gets through', async () => {
    let tries = 0
    const { user, router, api } = renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: {
        logout: () => (++tries === 1 ? networkError() : reply(okSchema, { data: { ok: true } })),
        getProfile: () => replyError(503),
      },
    })
    await findScreenTitle('profile')

    await user.click(banner().getByRole('button', { name: member.username }))
    await user.click(await screen.findByRole('menuitem', { name: '[ logout ]' }))

    await screen.findByRole('heading', { level: 1, name: 'home' }, { timeout: 5_000 })
    expect(router.state.location.pathname).toBe('/home')
    expect(banner().getByRole('link', { name: '[ login ]' })).toBeInTheDocument()
    expect(api.callsTo('logout')).toHaveLength(2)
    expect(queryToasts()).toHaveLength(0)
  })
})

describe('footer and scroll-to-top', () => {
  it('reads [ HUMANS TALKING WITH HUMANS ]', async () => {
    renderWithProviders({ path: '/home' })
    await findScreenTitle('home')
    expect(
      within(screen.getByRole('contentinfo')).getByText('[ HUMANS TALKING WITH HUMANS ]'),
    ).toBeInTheDocument()
  })

  it('offers a way back up once the page is scrolled more than 500 px', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo')
    const { user } = renderWithProviders({ path: '/home' })
    await findScreenTitle('home')
    expect(screen.queryByRole('button', { name: 'Scroll to top' })).not.toBeInTheDocument()

    window.scrollY = 500
    fireEvent.scroll(window)
    expect(screen.queryByRole('button', { name: 'Scroll to top' })).not.toBeInTheDocument()

    window.scrollY = 501
    fireEvent.scroll(window)
    // A layout that mounted late (a busy machine) reads the position when it does: wait for it.
    await user.click(await screen.findByRole('button', { name: 'Scroll to top' }))
    expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ top: 0 }))
  })
})

describe('landmarks', () => {
  it('has a skip link to the main content', async () => {
    renderWithProviders({ path: '/home' })
    await findScreenTitle('home')
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main')
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main')
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument()
  })

  it('moves focus to the new page after following a link', async () => {
    const { user } = renderWithProviders({ path: '/about' })
    await findScreenTitle('about')
    await user.click(within(screen.getByRole('banner')).getByRole('link', { name: '[ login ]' }))
    await findScreenTitle('login')
    // Once the new screen is painted.
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus())
  })
})
