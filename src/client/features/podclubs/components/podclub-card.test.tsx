import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import type { Podclub } from '#contract/podclubs'
import { podclubFixture } from '../testing'
import { PodclubCard } from './podclub-card'

function renderCard(
  podclub: Podclub,
  username: string | null,
  opts: { isPending?: boolean; isWaitlistPending?: boolean } = {},
) {
  const onToggle = vi.fn()
  const onToggleWaitlist = vi.fn()
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <PodclubCard
          podclub={podclub}
          username={username}
          isPending={opts.isPending ?? false}
          onToggle={onToggle}
          isWaitlistPending={opts.isWaitlistPending ?? false}
          onToggleWaitlist={onToggleWaitlist}
          share={{ clubInviteCode: 'club-code', appUrl: 'https://podclub.test' }}
        />
      ),
    },
  ])
  const { unmount } = render(<RouterProvider router={router} />)
  return { onToggle, onToggleWaitlist, unmount, card: screen.getByRole('article') }
}

const LONG = Array.from({ length: 45 }, (_, i) => `word${i + 1}`).join(' ')

describe('PodclubCard', () => {
  it('shows the podclub: title, podcast, date, time, Online by default, seats, links, badges', () => {
    const { card } = renderCard(podclubFixture({ seats_left: 1 }), null)
    expect(within(card).getByRole('heading', { name: /The Invention of Boredom/ })).toBeVisible()
    expect(card).toHaveTextContent('Hidden Brain')
    expect(card).toHaveTextContent('Monday, March 1, 2027')
    expect(card).toHaveTextContent('7:00 PM EST')
    expect(card).toHaveTextContent('Online')
    expect(card).toHaveTextContent('1 seat left')
    expect(card).toHaveTextContent('— host.one, podmeister')
    const listen = within(within(card).getByRole('list', { name: 'Listen' }))
    const links = listen.getAllByRole('link')
    // The invalid third URL gives no link; the external one is labelled with its host.
    expect(links).toHaveLength(2)
    expect(listen.getByRole('link', { name: 'YouTube' })).toBe(links[0])
    expect(listen.getByRole('link', { name: 'example.org' })).toBe(links[1])
    for (const a of links) expect(a).toHaveAttribute('rel', 'noopener noreferrer')
    const badges = within(within(card).getByRole('list', { name: 'Keywords' })).getAllByRole(
      'listitem',
    )
    expect(badges.map((b) => b.textContent)).toEqual(['attention', 'cities'])
  })

  it('sends a visitor to log in', () => {
    const { card } = renderCard(podclubFixture(), null)
    expect(within(card).getByRole('link', { name: '[ login to register ]' })).toHaveAttribute(
      'href',
      '/login',
    )
    expect(within(card).queryByRole('button', { name: /register/ })).toBeNull()
  })

  it('lets a member register', async () => {
    const podclub = podclubFixture()
    const { card, onToggle } = renderCard(podclub, 'ada')
    await userEvent.click(within(card).getByRole('button', { name: '[ register ]' }))
    expect(onToggle).toHaveBeenCalledWith(podclub, false)
  })

  it('shows a full podclub as a disabled button', () => {
    const { card } = renderCard(podclubFixture({ seats_left: 0 }), 'ada')
    expect(within(card).getByRole('button', { name: '[ registration full ]' })).toBeDisabled()
    expect(card).toHaveTextContent('No seats left')
  })

  describe('the seat waitlist of a full podclub', () => {
    const full = (waiting: string[]) =>
      podclubFixture({
        seats_left: 0,
        waitlist_count: waiting.length,
        seat_waitlist: { waiting },
      })

    it('offers a member to join it beside the disabled full button, with the line so far', async () => {
      const podclub = full(['bo', 'cy', 'di'])
      const { card, onToggleWaitlist, onToggle } = renderCard(podclub, 'ada')
      expect(within(card).getByRole('button', { name: '[ registration full ]' })).toBeDisabled()
      const join = within(card).getByRole('button', { name: '[ join waitlist ]' })
      expect(join).toBeEnabled()
      expect(join).toHaveAccessibleDescription(
        '3 on the seat waitlist. Join and a freed seat comes to you in turn.',
      )
      await userEvent.click(join)
      expect(onToggleWaitlist).toHaveBeenCalledWith(podclub, false)
      expect(onToggle).not.toHaveBeenCalled()
    })

    it('invites the first one in when nobody waits yet', () => {
      const { card } = renderCard(full([]), 'ada')
      expect(
        within(card).getByRole('button', { name: '[ join waitlist ]' }),
      ).toHaveAccessibleDescription('Join the seat waitlist and the next freed seat is yours.')
    })

    it("shows a waiting member's place, politely announced, and lets them leave", async () => {
      const podclub = full(['bo', 'ada', 'cy'])
      const { card, onToggleWaitlist } = renderCard(podclub, 'ada')
      const place = within(card).getByText('#2 on the seat waitlist.')
      expect(place.closest('[aria-live]')).toHaveAttribute('aria-live', 'polite')
      expect(within(card).queryByRole('button', { name: '[ join waitlist ]' })).toBeNull()
      await userEvent.click(within(card).getByRole('button', { name: '[ leave waitlist ]' }))
      expect(onToggleWaitlist).toHaveBeenCalledWith(podclub, true)
    })

    it('disables the waitlist button while a join or leave is pending', () => {
      const { card } = renderCard(full(['ada']), 'ada', { isWaitlistPending: true })
      const leave = within(card).getByRole('button', { name: '[ leave waitlist ]' })
      expect(leave).toBeDisabled()
      expect(leave).toHaveAttribute('aria-busy', 'true')
      // Only this card's call is pending: the registration button stays as it was.
      expect(
        within(card).getByRole('button', { name: '[ registration full ]' }),
      ).not.toHaveAttribute('aria-busy')
    })

    it('is not offered to visitors, the podmeister or members holding a seat', () => {
      const cases: [string | null, Podclub][] = [
        [null, full(['bo'])],
        ['host.one', full(['bo'])],
        ['ada', { ...full(['bo']), api_registered_usernames: { reserved: ['ada'] } }],
      ]
      for (const [username, podclub] of cases) {
        const { card, unmount } = renderCard(podclub, username)
        expect(within(card).queryByRole('button', { name: /waitlist/ })).toBeNull()
        expect(card).not.toHaveTextContent('seat waitlist')
        unmount()
      }
    })
  })

  it('tells a registered member they are in, with share and cancel', async () => {
    const podclub = podclubFixture({ id: 7, api_registered_usernames: { reserved: ['ada'] } })
    const { card, onToggle } = renderCard(podclub, 'ada')
    expect(card).toHaveTextContent("You're registered, see you there!")
    const share = within(card).getByRole('link', { name: '[ share to x ]' })
    expect(share.getAttribute('href')).toMatch(/^https:\/\/x\.com\/intent\/post\?/)
    expect(decodeURIComponent(share.getAttribute('href')!)).toContain(
      'https://podclub.test/podclubs/7',
    )
    await userEvent.click(within(card).getByRole('button', { name: '[ cancel ]' }))
    expect(onToggle).toHaveBeenCalledWith(podclub, true)
  })

  it('disables the button while a register or cancel is pending', () => {
    const { card } = renderCard(podclubFixture(), 'ada', { isPending: true })
    const button = within(card).getByRole('button', { name: '[ register ]' })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('aria-busy', 'true')
  })

  it('offers no seat changes once the podclub has started', () => {
    const started = podclubFixture({ starts_at: new Date(Date.now() - 60_000).toISOString() })
    const { card, unmount } = renderCard(started, 'ada.l')
    expect(within(card).queryByRole('button', { name: /register/ })).toBeNull()
    expect(card).toHaveTextContent('This podclub has started: seats can no longer change.')
    unmount()
    const seated = renderCard(
      { ...started, api_registered_usernames: { reserved: ['ada.l'] } },
      'ada.l',
    )
    expect(within(seated.card).queryByRole('button', { name: '[ cancel ]' })).toBeNull()
    expect(seated.card).toHaveTextContent("It's on now: you have a seat, see you there!")
  })

  it('does not offer the podmeister a seat', () => {
    const { card } = renderCard(podclubFixture(), 'host.one')
    expect(card).toHaveTextContent("You're the podmeister of this one.")
    expect(within(card).queryByRole('button', { name: /register|cancel/ })).toBeNull()
  })

  it('cuts the description at 30 words with Read more and Show less', async () => {
    const { card } = renderCard(podclubFixture({ description: LONG, podmeister_note: '' }), null)
    expect(card).toHaveTextContent('word30…')
    expect(card).not.toHaveTextContent('word31')
    await userEvent.click(within(card).getByRole('button', { name: 'Read more' }))
    expect(card).toHaveTextContent('word45')
    await userEvent.click(within(card).getByRole('button', { name: 'Show less' }))
    expect(card).not.toHaveTextContent('word31')
  })
})
