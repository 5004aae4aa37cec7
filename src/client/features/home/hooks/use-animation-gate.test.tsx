import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TestimonialCard } from '../components/testimonial-card'
import { TESTIMONIALS } from '../lib/copy'

/** An IntersectionObserver the test moves on and off screen. */
let setOnScreen: (isOnScreen: boolean) => void = () => {}
class FakeIntersectionObserver {
  constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
    setOnScreen = (isOnScreen) => callback([{ isIntersecting: isOnScreen }])
  }
  observe() {}
  disconnect() {}
}

let visibility: DocumentVisibilityState = 'visible'
const setTabVisibility = (state: DocumentVisibilityState) => {
  visibility = state
  document.dispatchEvent(new Event('visibilitychange'))
}

const shown = (i: number) => screen.queryByText(TESTIMONIALS[i]!.quote, { exact: false })
const wait = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms)
  })

describe('animations pause off screen and in a hidden tab', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver)
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
    visibility = 'visible'
  })

  it('runs only while the card is on screen and the tab is visible', () => {
    render(<TestimonialCard />)
    // Not yet seen: nothing moves.
    wait(9000)
    expect(shown(0)).toBeVisible()
    act(() => setOnScreen(true))
    wait(8000)
    expect(shown(1)).toBeVisible()
    act(() => setTabVisibility('hidden'))
    wait(24_000)
    expect(shown(1)).toBeVisible()
    act(() => setTabVisibility('visible'))
    wait(8000)
    expect(shown(2)).toBeVisible()
    act(() => setOnScreen(false))
    wait(24_000)
    expect(shown(2)).toBeVisible()
  })
})
