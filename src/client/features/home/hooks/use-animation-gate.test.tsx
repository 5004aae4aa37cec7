import { act, render, renderHook, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TestimonialCard } from '../components/testimonial-card'
import { TESTIMONIALS } from '../lib/copy'
import { useWebAnimations } from './use-animation-gate'

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

/** A Web Animation as the hook uses it: its clock is the page's timeline, set by the test. */
class FakeAnimation {
  private start: number | null = null
  private heldAt: number | null = 0
  constructor(private timeline: { currentTime: number }) {}
  get currentTime() {
    return this.heldAt ?? this.timeline.currentTime - this.start!
  }
  get startTime() {
    return this.start
  }
  /** As in the browser, setting the start time plays it. */
  set startTime(time: number | null) {
    this.start = time
    this.heldAt = null
  }
  play() {
    this.startTime = this.timeline.currentTime - this.currentTime
  }
  pause() {
    this.heldAt = this.currentTime
  }
  cancel() {}
}

describe('animations in steps share one grid of the timeline', () => {
  const timeline = { currentTime: 0 }
  // jsdom has neither: the page's timeline and `element.animate` (which the hook looks for).
  beforeEach(() => {
    Object.defineProperty(Element.prototype, 'animate', {
      configurable: true,
      value: () => {
        throw new Error('the test makes its own animations')
      },
    })
    Object.defineProperty(document, 'timeline', { configurable: true, value: timeline })
  })
  afterEach(() => {
    Reflect.deleteProperty(Element.prototype, 'animate')
    Reflect.deleteProperty(document, 'timeline')
  })

  it('starts and resumes them at a grid line, where they stood in whole steps', () => {
    timeline.currentTime = 1234
    const animations = [new FakeAnimation(timeline), new FakeAnimation(timeline)]
    const { rerender } = renderHook(
      ({ isActive }) =>
        useWebAnimations(() => animations as unknown as Animation[], isActive, { stepMs: 100 }),
      { initialProps: { isActive: true } },
    )
    expect(animations.map((a) => a.startTime)).toEqual([1200, 1200])

    timeline.currentTime = 2560
    rerender({ isActive: false })
    expect(animations.map((a) => a.currentTime)).toEqual([1360, 1360])
    timeline.currentTime = 9071
    rerender({ isActive: true })
    // 1360 ms in is 14 steps; the grid line just passed is 9000.
    expect(animations.map((a) => a.startTime)).toEqual([7600, 7600])
    expect(animations.every((a) => a.startTime! % 100 === 0)).toBe(true)
  })

  it('plays them as they are without a step', () => {
    timeline.currentTime = 1234
    const animation = new FakeAnimation(timeline)
    renderHook(() => useWebAnimations(() => [animation as unknown as Animation], true))
    expect(animation.startTime).toBe(1234)
  })
})
