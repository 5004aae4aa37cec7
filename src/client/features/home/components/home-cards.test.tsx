import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createInviteResponseSchema } from '#contract/invites'
import {
  getRandomPastPodclubResponseSchema,
  getSplashResponseSchema,
  type PastPodclub,
} from '#contract/podclubs'
import { createdSchema } from '#contract/suggestions'
import { member } from '#client/testing/fixtures'
import { mockApi, reply, replyError, type MockReply } from '#client/testing/mock-api'
import { createTestQueryClient, queryToasts, renderWithProviders } from '#client/testing/render'
import { SPLASH_TAGLINE, TAGLINES, WORDMARK } from '../lib/copy'
import { AboutCard } from './about-card'
import { JoinCard } from './join-card'
import { Splash } from './splash'
import { StatsCard } from './stats-card'

/** A reply held back until the test lets it go, to see what the page shows meanwhile. */
function deferred() {
  let release: (r: MockReply) => void = () => {}
  const promise = new Promise<MockReply>((resolve) => {
    release = resolve
  })
  return { promise, release }
}

function inRouter(node: ReactNode) {
  const router = createMemoryRouter([{ path: '/', element: node }])
  return render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

function prefersReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('reduce'),
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

const pastPodclub = (overrides: Partial<PastPodclub> = {}): PastPodclub => ({
  id: 3,
  episode_title: 'The Cathedral',
  episode_number: '12',
  description: 'A church built over centuries by people who never saw it finished.',
  podcast: { name: 'Radiolab', picture_link: '' },
  keyword_one: 'time',
  keyword_two: 'faith',
  keyword_three: 'craft',
  link_one: 'https://www.radiolab.org/episodes/cathedral',
  link_two: 'not a link',
  link_three: '',
  participant_count: 7,
  discussion_date: 'Thursday, December 17, 2026',
  ...overrides,
})

describe('InviteCard', () => {
  it('checks the address and the note with the spec messages as they are typed', async () => {
    const { user } = renderWithProviders({ path: '/home', currentUser: member })
    const email = await screen.findByLabelText('Their e-mail')
    const send = screen.getByRole('button', { name: '[ send invite ]' })
    expect(send).toBeDisabled()
    await user.type(email, 'not-an-address')
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible()
    expect(send).toBeDisabled()
    await user.clear(email)
    expect(await screen.findByText('Email is required')).toBeVisible()
    await user.type(email, 'friend@example.com')
    expect(send).toBeEnabled()
    const note = screen.getByLabelText('A note from you (optional)')
    fireEvent.input(note, { target: { value: 'x'.repeat(501) } })
    expect(await screen.findByText('Note must be less than 500 characters')).toBeVisible()
    expect(send).toBeDisabled()
    fireEvent.input(note, { target: { value: 'x'.repeat(500) } })
    await waitFor(() =>
      expect(screen.queryByText('Note must be less than 500 characters')).toBeNull(),
    )
    expect(send).toBeEnabled()
  })

  it("says 'sending...' while it sends, then names the address and clears the form", async () => {
    const answer = deferred()
    const { api, user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: { sendInvite: () => answer.promise },
    })
    await user.type(await screen.findByLabelText('Their e-mail'), ' friend@example.com ')
    await user.type(screen.getByLabelText('A note from you (optional)'), 'Come argue with us.')
    await user.click(screen.getByRole('button', { name: '[ send invite ]' }))
    const sending = await screen.findByRole('button', { name: 'sending...' })
    expect(sending).toBeDisabled()
    expect(screen.getByLabelText('Their e-mail')).toBeDisabled()
    answer.release(reply(createInviteResponseSchema, { data: { sent: true } }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Invitation Sent'))
    expect(queryToasts()[0]).toHaveTextContent('Successfully sent invite to friend@example.com')
    expect(api.callsTo('sendInvite')[0]?.body).toEqual({
      phone: '',
      podclubId: '',
      email: 'friend@example.com',
      note: 'Come argue with us.',
    })
    expect(screen.getByLabelText('Their e-mail')).toHaveValue('')
    expect(screen.getByLabelText('A note from you (optional)')).toHaveValue('')
  })

  it("shows 'Failed to Send Invite' with the server's message, and its field errors in place", async () => {
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        sendInvite: () => replyError(400, { email: ['Please enter a valid email address'] }),
      },
    })
    await user.type(await screen.findByLabelText('Their e-mail'), 'friend@example.com')
    await user.click(screen.getByRole('button', { name: '[ send invite ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to Send Invite'))
    expect(queryToasts()[0]).toHaveTextContent('Please enter a valid email address')
    expect(screen.getByLabelText('Their e-mail')).toHaveAttribute('aria-invalid', 'true')
  })
})

describe('SuggestCard', () => {
  it("disables the form and says 'submitting...' while it sends", async () => {
    const answer = deferred()
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: { suggestPodcast: () => answer.promise },
    })
    const link = await screen.findByLabelText('Podcast episode link')
    await user.type(link, 'https://example.com/episode/9')
    const reason = screen.getByLabelText('Why this one? (optional)')
    fireEvent.input(reason, { target: { value: 'y'.repeat(301) } })
    expect(await screen.findByText('Reason must be less than 300 characters')).toBeVisible()
    expect(screen.getByRole('button', { name: '[ suggest ]' })).toBeDisabled()
    fireEvent.input(reason, { target: { value: 'The best hour on trees.' } })
    await user.click(screen.getByRole('button', { name: '[ suggest ]' }))
    expect(await screen.findByRole('button', { name: 'submitting...' })).toBeDisabled()
    expect(link).toBeDisabled()
    expect(reason).toBeDisabled()
    answer.release(reply(createdSchema, { data: { id: 1 } }, 201))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Podcast Suggested!'))
    expect(queryToasts()[0]).toHaveTextContent(
      "Thanks for the suggestion! We'll review it and create a podclub soon.",
    )
    expect(link).toHaveValue('')
    expect(reason).toHaveValue('')
  })

  it("shows 'Failed to Submit' with the message and puts field errors under the field", async () => {
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        suggestPodcast: () =>
          replyError(400, { podcastLink: ['Please enter a valid podcast episode URL'] }),
      },
    })
    await user.type(await screen.findByLabelText('Podcast episode link'), 'https://x.test/1')
    await user.click(screen.getByRole('button', { name: '[ suggest ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to Submit'))
    expect(queryToasts()[0]).toHaveTextContent('Please enter a valid podcast episode URL')
    const link = screen.getByLabelText('Podcast episode link')
    expect(link).toHaveAttribute('aria-invalid', 'true')
    expect(document.getElementById(link.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Please enter a valid podcast episode URL',
    )
  })
})

describe('ArchiveCard', () => {
  it('shows skeletons, then a random past podclub, and asks for another on shuffle', async () => {
    const first = deferred()
    let calls = 0
    const { api, user } = renderWithProviders({
      path: '/home',
      handlers: {
        getRandomPastPodclub: () => {
          calls += 1
          return calls === 1
            ? first.promise
            : reply(getRandomPastPodclubResponseSchema, {
                data: pastPodclub({ episode_title: 'Another One', participant_count: 4 }),
              })
        },
      },
    })
    const archive = await screen.findByRole('region', { name: 'From the archive' })
    expect(archive).toHaveAttribute('aria-busy', 'true')
    expect(within(archive).getByRole('button', { name: '[ shuffle ]' })).toBeDisabled()
    first.release(reply(getRandomPastPodclubResponseSchema, { data: pastPodclub() }))
    expect(await within(archive).findByRole('heading', { name: 'The Cathedral' })).toBeVisible()
    expect(archive).not.toHaveAttribute('aria-busy')
    expect(archive).toHaveTextContent('Radiolab')
    expect(archive).toHaveTextContent('7 participants · Thursday, December 17, 2026')
    const keywords = within(within(archive).getByRole('list', { name: 'Keywords' }))
    expect(keywords.getAllByRole('listitem').map((k) => k.textContent)).toEqual([
      'time',
      'faith',
      'craft',
    ])
    // The invalid second URL gives no link; the external one is labelled with its host.
    const links = within(within(archive).getByRole('list', { name: 'Listen' })).getAllByRole('link')
    expect(links.map((a) => a.textContent)).toEqual(['radiolab.org'])
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer')

    await user.click(within(archive).getByRole('button', { name: '[ shuffle ]' }))
    expect(await within(archive).findByRole('heading', { name: 'Another One' })).toBeVisible()
    expect(api.callsTo('getRandomPastPodclub')).toHaveLength(2)
  })

  it("says 'Failed to load archive' with the reason when the call fails", async () => {
    renderWithProviders({
      path: '/home',
      handlers: { getRandomPastPodclub: () => replyError(500) },
    })
    const archive = await screen.findByRole('region', { name: 'From the archive' })
    expect(await within(archive).findByText('Failed to load archive')).toBeVisible()
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to load archive'))
    expect(queryToasts()[0]).toHaveTextContent('Internal server error. Please try again later.')
  })
})

describe('JoinCard', () => {
  it('has eight taglines, one of them shown, and a way to /register, at least 400 px tall', async () => {
    expect(TAGLINES).toHaveLength(8)
    expect(TAGLINES).toContain('no bots. no ai. no bs.')
    inRouter(<JoinCard instance={0} seed={7} />)
    const join = await screen.findByRole('link', { name: '[ join the club ]' })
    expect(join).toHaveAttribute('href', '/register')
    expect(screen.getByText('Ready to talk about more than just the weather?')).toBeVisible()
    expect(TAGLINES.some((t) => screen.queryByText(t))).toBe(true)
    const card = join.closest('.min-h-\\[400px\\]')
    expect(card).not.toBeNull()
  })

  it('picks one of four palettes by its instance number', async () => {
    const paletteOf = async (instance: number) => {
      const { unmount } = inRouter(<JoinCard instance={instance} seed={7} />)
      const card = (await screen.findByRole('link', { name: '[ join the club ]' })).closest(
        '.min-h-\\[400px\\]',
      )!
      const palette = [...card.classList].filter(
        (c) => c.startsWith('from-') || c.startsWith('to-'),
      )
      unmount()
      return palette.join(' ')
    }
    const palettes = [
      await paletteOf(0),
      await paletteOf(1),
      await paletteOf(2),
      await paletteOf(3),
    ]
    expect(new Set(palettes).size).toBe(4)
    expect(await paletteOf(4)).toBe(palettes[0])
    expect(await paletteOf(7)).toBe(palettes[3])
  })
})

describe('StatsCard', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('swaps a hovered row’s label and lights a random row for 1 s every 4 s while none is hovered', async () => {
    mockApi({
      getSplashStats: () =>
        reply(getSplashResponseSchema, {
          data: { member_count: 312, completed_podclub_count: 48, cities_count: 27 },
        }),
    })
    render(
      <QueryClientProvider client={createTestQueryClient()}>
        <StatsCard />
      </QueryClientProvider>,
    )
    await screen.findByText('312')
    const rowOf = (label: string) => screen.getByText(label).parentElement!
    const lit = () =>
      ['members', 'pods discussed', 'cities represented'].filter((l) =>
        rowOf(l).classList.contains('bg-accent'),
      )
    expect(lit()).toEqual([])
    act(() => {
      vi.advanceTimersByTime(4000)
    })
    // Math.random() is 0.5: the middle row.
    expect(lit()).toEqual(['pods discussed'])
    act(() => {
      vi.advanceTimersByTime(1000)
    })
    expect(lit()).toEqual([])

    fireEvent.mouseEnter(rowOf('members'))
    expect(screen.getByText('POTENTIAL BEST FRIENDS')).toBeVisible()
    expect(screen.queryByText('members')).toBeNull()
    act(() => {
      vi.advanceTimersByTime(8000)
    })
    // Nothing else lights up while a row is hovered.
    expect(screen.getByText('pods discussed').parentElement).not.toHaveClass('bg-accent')
    fireEvent.mouseLeave(screen.getByText('POTENTIAL BEST FRIENDS').parentElement!)
    expect(screen.getByText('members')).toBeVisible()
    fireEvent.mouseEnter(rowOf('pods discussed'))
    expect(screen.getByText('LIFE-ENHANCING CONVOS')).toBeVisible()
    fireEvent.mouseLeave(screen.getByText('LIFE-ENHANCING CONVOS').parentElement!)
    fireEvent.mouseEnter(rowOf('cities represented'))
    expect(screen.getByText('FUTURE ROAD TRIPS')).toBeVisible()
  })
})

describe('AboutCard', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('unscrambles its title every 50 ms, rests 3 s, and links to /about', () => {
    prefersReducedMotion(false)
    const router = createMemoryRouter([{ path: '/', element: <AboutCard /> }])
    render(<RouterProvider router={router} />)
    const heading = screen.getByRole('heading', { name: 'what is podclub?' })
    const shown = () => heading.querySelector('[aria-hidden]')!.textContent
    expect(screen.getByRole('link', { name: '[ read more ]' })).toHaveAttribute('href', '/about')
    expect(shown()).toBe('what is podclub?')
    // The 3 s rest first; then the title starts scrambled and decodes one letter per 50 ms.
    vi.spyOn(Math, 'random').mockReturnValue(0)
    act(() => {
      vi.advanceTimersByTime(2950)
    })
    expect(shown()).toBe('what is podclub?')
    act(() => {
      vi.advanceTimersByTime(50)
    })
    expect(shown()).toBe('aaaa aa aaaaaaaa')
    act(() => {
      vi.advanceTimersByTime(50 * 3)
    })
    expect(shown()).toBe('whaa aa aaaaaaaa')
    act(() => {
      vi.advanceTimersByTime(50 * 13)
    })
    expect(shown()).toBe('what is podclub?')
  })

  it('stands still under reduced motion', () => {
    prefersReducedMotion(true)
    const router = createMemoryRouter([{ path: '/', element: <AboutCard /> }])
    render(<RouterProvider router={router} />)
    const heading = screen.getByRole('heading', { name: 'what is podclub?' })
    act(() => {
      vi.advanceTimersByTime(3100)
    })
    expect(heading.querySelector('[aria-hidden]')!.textContent).toBe('what is podclub?')
  })
})

describe('Splash', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  const typed = () => document.querySelector('[data-wordmark]')!.textContent
  const tagline = () => screen.getByText(SPLASH_TAGLINE[0], { exact: false })

  it('types the wordmark at 300 ms a letter, shows the tagline 300 ms later, and locks scrolling', () => {
    prefersReducedMotion(false)
    render(<Splash onGone={() => {}} />)
    expect(document.documentElement.style.overflow).toBe('hidden')
    expect(typed()).toBe('')
    act(() => {
      vi.advanceTimersByTime(300)
    })
    expect(typed()).toBe('p')
    for (let n = 2; n <= WORDMARK.length; n++) {
      act(() => {
        vi.advanceTimersByTime(300)
      })
      expect(typed()).toBe(WORDMARK.slice(0, n))
    }
    expect(tagline()).toHaveClass('opacity-0')
    expect(document.querySelector('[data-cursor]')).toHaveClass('animate-pulse')
    act(() => {
      vi.advanceTimersByTime(300)
    })
    expect(tagline()).toHaveClass('opacity-100')
    // The cursor has done its job once the tagline is up.
    expect(document.querySelector('[data-cursor]')).toHaveClass('opacity-0')
    expect(document.querySelector('[data-cursor]')).not.toHaveClass('animate-pulse')
    // The screen-reader text is whole from the start.
    expect(screen.getByText(WORDMARK, { selector: '.sr-only' })).toBeInTheDocument()
  })

  it('leaves on the click, is removed 800 ms later and gives scrolling back', () => {
    prefersReducedMotion(false)
    const onDismiss = vi.fn()
    const onGone = vi.fn()
    const { unmount } = render(<Splash onDismiss={onDismiss} onGone={onGone} />)
    fireEvent.click(screen.getByRole('button', { name: 'this way in' }))
    expect(onDismiss).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('splash')).toHaveAttribute('data-phase', 'dismissing')
    expect(screen.getByTestId('splash')).toHaveClass('-translate-y-full', 'opacity-0')
    act(() => {
      vi.advanceTimersByTime(790)
    })
    expect(onGone).not.toHaveBeenCalled()
    act(() => {
      vi.advanceTimersByTime(10)
    })
    expect(onGone).toHaveBeenCalledTimes(1)
    unmount()
    expect(document.documentElement.style.overflow).toBe('')
  })

  it('leaves on a wheel down but not up, and on a key that moves through the page', () => {
    prefersReducedMotion(false)
    const onDismiss = vi.fn()
    const first = render(<Splash onDismiss={onDismiss} onGone={() => {}} />)
    fireEvent.wheel(window, { deltaY: -120 })
    expect(onDismiss).not.toHaveBeenCalled()
    fireEvent.wheel(window, { deltaY: 120 })
    expect(onDismiss).toHaveBeenCalledTimes(1)
    // One splash at a time, as on the page: two would hand the scroll lock to each other.
    first.unmount()

    const onKey = vi.fn()
    render(<Splash onDismiss={onKey} onGone={() => {}} />)
    fireEvent.keyDown(window, { key: 'Tab' })
    expect(onKey).toHaveBeenCalledTimes(1)
  })

  it('shows the wordmark and tagline at once, without the slide, under reduced motion', () => {
    prefersReducedMotion(true)
    render(<Splash onGone={() => {}} />)
    expect(typed()).toBe(WORDMARK)
    expect(tagline()).toHaveClass('opacity-100')
    fireEvent.click(screen.getByRole('button', { name: 'this way in' }))
    expect(screen.getByTestId('splash')).toHaveClass(
      'motion-reduce:translate-y-0',
      'motion-reduce:transform-none',
    )
  })
})
