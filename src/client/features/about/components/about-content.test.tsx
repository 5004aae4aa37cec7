import { act, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { findScreenTitle, renderWithProviders, testPublicConfig } from '#client/testing/render'
import { QUOTES } from './about-content'
import { QUOTE_INTERVAL_MS, QuoteRotator } from './quote-rotator'

describe('about page', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('has the six tl;dr cards, five steps, three rules and the contact address', async () => {
    renderWithProviders({ path: '/about' })
    await findScreenTitle('about')
    const section = (name: string | RegExp) =>
      within(screen.getByRole('heading', { level: 2, name }).closest('section')!)
    expect(
      section('tl;dr')
        .getAllByRole('listitem')
        .map((li) => li.querySelector('h3')?.textContent),
    ).toEqual(['What', 'Why', 'Who', 'Where', 'When', 'How much'])
    expect(section('How does it work').getAllByRole('listitem')).toHaveLength(5)
    expect(
      section('The Rules of podclub')
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringContaining("Don't be a d*ck."),
      expect.stringContaining('Elevate the conversation.'),
      expect.stringContaining('Invite your friends.'),
    ])
    expect(screen.getByRole('heading', { name: /not an expert/ })).toBeInTheDocument()
    expect(
      await screen.findByRole('link', { name: testPublicConfig.contact_email }),
    ).toHaveAttribute('href', `mailto:${testPublicConfig.contact_email}`)
  })

  it('changes the quote every 10 seconds and comes back round after five', () => {
    vi.useFakeTimers()
    render(<QuoteRotator quotes={QUOTES} />)
    const quote = () => screen.getByRole('blockquote').textContent
    const seen = [quote()]
    for (let i = 0; i < QUOTES.length; i++) {
      act(() => {
        vi.advanceTimersByTime(QUOTE_INTERVAL_MS - 1)
      })
      expect(quote()).toBe(seen.at(-1))
      act(() => {
        vi.advanceTimersByTime(1)
      })
      seen.push(quote())
    }
    expect(QUOTES).toHaveLength(5)
    expect(new Set(seen.slice(0, 5)).size).toBe(5)
    expect(seen[5]).toBe(seen[0])
  })
})
