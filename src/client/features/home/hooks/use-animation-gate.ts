import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useIsHydrated } from '#client/lib/hydration'

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)'

function subscribeReducedMotion(onChange: () => void) {
  const query = window.matchMedia?.(REDUCED_MOTION)
  query?.addEventListener('change', onChange)
  return () => query?.removeEventListener('change', onChange)
}

/** Whether the person asked their system for less motion; follows changes live. */
export function usePrefersReducedMotion() {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia?.(REDUCED_MOTION).matches ?? false,
    () => false,
  )
}

function subscribeVisibility(onChange: () => void) {
  document.addEventListener('visibilitychange', onChange)
  return () => document.removeEventListener('visibilitychange', onChange)
}

/**
 * Whether an animation may run now: its element is on screen, the tab is visible and the person
 * has not asked for reduced motion. Attach `ref` to the animated element.
 */
export function useAnimationGate<T extends Element>() {
  const ref = useRef<T>(null)
  // Still in the server's HTML and while the browser hydrates it; then as the observer says, and
  // without IntersectionObserver (old browsers, tests) the element counts as on screen.
  const isHydrated = useIsHydrated()
  const hasObserver = typeof IntersectionObserver !== 'undefined'
  const [isSeen, setIsSeen] = useState(false)
  const isOnScreen = isHydrated && (isSeen || !hasObserver)
  const isTabVisible = useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== 'hidden',
    () => true,
  )
  const prefersReducedMotion = usePrefersReducedMotion()

  useEffect(() => {
    const element = ref.current
    if (!element || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(([entry]) => setIsSeen(!!entry?.isIntersecting))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  return {
    ref,
    isActive: isOnScreen && isTabVisible && !prefersReducedMotion,
    prefersReducedMotion,
  }
}

/** Calls `tick` every `ms` while `isActive`; stops (and keeps its state) otherwise. */
export function useInterval(tick: () => void, ms: number, isActive: boolean) {
  const latest = useRef(tick)
  useEffect(() => {
    latest.current = tick
  })
  useEffect(() => {
    if (!isActive) return
    const id = window.setInterval(() => latest.current(), ms)
    return () => window.clearInterval(id)
  }, [ms, isActive])
}

/**
 * Starts the animations `start` makes (Web Animations, `element.animate`) once the elements are
 * in the page, plays them while `isActive` and pauses them, where they are, otherwise. Web
 * Animations of transform and opacity run on the browser's compositor, off the page's main
 * thread; CSS animations would not here, because React listens for `animationiteration` events
 * on the whole page, which makes the browser step every CSS animation on the main thread.
 * Without `element.animate` (jsdom), nothing moves.
 *
 * Even on the compositor, a running animation wakes the main thread every frame (Chromium
 * measured here: 40 to 45 ms of its CPU in 5 s for one animation or thirty alike). An animation
 * that moves in steps (`steps()` easing) wakes it only at each step; `stepMs` puts every step of
 * these animations on one grid of the page's timeline, so all of them together wake it once a
 * step (30 animations in 100 ms steps: 8 ms in 5 s). Their durations and delays must then be
 * whole steps; they start, and resume, at a grid line.
 */
export function useWebAnimations(
  start: () => Animation[],
  isActive: boolean,
  { stepMs }: { stepMs?: number } = {},
) {
  const animations = useRef<Animation[]>([])
  const startRef = useRef(start)
  useEffect(() => {
    if (typeof Element.prototype.animate !== 'function') return
    animations.current = startRef.current()
    return () => {
      for (const animation of animations.current) animation.cancel()
      animations.current = []
    }
  }, [])
  useEffect(() => {
    const now = document.timeline?.currentTime
    for (const animation of animations.current) {
      if (!isActive) animation.pause()
      else if (stepMs === undefined || typeof now !== 'number') animation.play()
      else playOnGrid(animation, now, stepMs)
    }
  }, [isActive, stepMs])
}

/**
 * Plays `animation` from where it stands, in whole steps, as from the grid line of the page's
 * timeline just passed (`now`): setting its start time plays it.
 */
function playOnGrid(animation: Animation, now: number, stepMs: number) {
  const at = Math.round(Number(animation.currentTime ?? 0) / stepMs) * stepMs
  animation.startTime = Math.floor(now / stepMs) * stepMs - at
}
