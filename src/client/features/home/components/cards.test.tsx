import { act, render, screen } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getSplashResponseSchema } from '#contract/podclubs'
import { mockApi, reply, replyError } from '#client/testing/mock-api'
import { createTestQueryClient } from '#client/testing/render'
import { TESTIMONIALS } from '../lib/copy'
import { scrambled } from './about-card'
import { createSwipeCounter } from './splash'
import { StatsCard } from './stats-card'
import { TestimonialCard } from './testimonial-card'

function withQueries(node: ReactNode) {
  return render(<QueryClientProvider client={createTestQueryClient()}>{node}</QueryClientProvider>)
}

describe('createSwipeCounter', () => {
  it('dismisses after 100 upward, starting over when the finger turns back', () => {
    const swipe = createSwipeCounter()
    swipe.start(500)
    expect(swipe.move(440)).toBe(false) // up 60
    expect(swipe.move(470)).toBe(false) // down: starts over
    expect(swipe.move(400)).toBe(false) // up 70
    expect(swipe.move(370)).toBe(true) // up 100 since the turn
  })

  it('never dismisses on a downward swipe', () => {
    const swipe = createSwipeCounter()
    swipe.start(100)
    expect(swipe.move(400)).toBe(false)
    expect(swipe.move(700)).toBe(false)
  })
})

describe('scrambled', () => {
  it('keeps the revealed letters and spaces, scrambles the rest', () => {
    const out = scrambled('what is', 2, () => 0)
    expect(out).toBe('wh' + 'aa' + ' ' + 'aa')
  })
})

describe('StatsCard', () => {
  it("shows '---' until the numbers come", async () => {
    mockApi({
      getSplashStats: () =>
        reply(getSplashResponseSchema, {
          data: { member_count: 1204, completed_podclub_count: 48, cities_count: 27 },
        }),
    })
    withQueries(<StatsCard />)
    expect(screen.getAllByText('---')).toHaveLength(3)
    expect(await screen.findByText('1,204')).toBeVisible()
    expect(screen.getByText('48')).toBeVisible()
    expect(screen.getByText('27')).toBeVisible()
  })

  it("keeps '---' silently when the call fails", async () => {
    const api = mockApi({ getSplashStats: () => replyError(500) })
    withQueries(<StatsCard />)
    await vi.waitFor(() => expect(api.callsTo('getSplashStats')).toHaveLength(1))
    expect(screen.getAllByText('---')).toHaveLength(3)
  })
})

describe('TestimonialCard', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('moves to the next of six quotes every 8 seconds, with a dot for each', () => {
    render(<TestimonialCard />)
    expect(screen.getAllByRole('button', { name: /Quote \d of 6/ })).toHaveLength(6)
    expect(screen.getByText(TESTIMONIALS[0]!.quote, { exact: false })).toBeVisible()
    act(() => {
      vi.advanceTimersByTime(7_900)
    })
    expect(screen.getByText(TESTIMONIALS[0]!.quote, { exact: false })).toBeVisible()
    act(() => {
      vi.advanceTimersByTime(200)
    })
    expect(screen.getByText(TESTIMONIALS[1]!.quote, { exact: false })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Quote 2 of 6' })).toHaveAttribute(
      'aria-current',
      'true',
    )
    // All six hold their place (the card keeps its height); only the shown one is read out.
    const figures = screen.getAllByRole('figure', { hidden: true })
    expect(figures).toHaveLength(6)
    expect(screen.getAllByRole('figure')).toEqual([figures[1]])
  })

  it('stands still when the person prefers reduced motion', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('reduce'),
      addEventListener: () => {},
      removeEventListener: () => {},
    }))
    render(<TestimonialCard />)
    act(() => {
      vi.advanceTimersByTime(30_000)
    })
    expect(screen.getByText(TESTIMONIALS[0]!.quote, { exact: false })).toBeVisible()
    vi.unstubAllGlobals()
  })
})
