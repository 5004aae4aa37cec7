import { useEffect, useRef, useState } from 'react'
import { usePrefersReducedMotion } from '../hooks/use-animation-gate'
import { SPLASH_TAGLINE, WORDMARK } from '../lib/copy'
import { markSplashSeen } from '../lib/splash-seen'

export const TYPE_STEP_MS = 300
export const TAGLINE_DELAY_MS = 300
export const REMOVE_AFTER_MS = 800
export const SWIPE_THRESHOLD = 100

export type SplashPhase = 'showing' | 'dismissing' | 'gone'

/** Keys that mean "take me to the page": the splash gets out of a keyboard user's way. */
const DISMISS_KEYS = new Set([
  'Enter',
  ' ',
  'Escape',
  'Tab',
  'ArrowDown',
  'PageDown',
  'End',
  'Home',
])

/**
 * Counts an upward swipe: movement in one direction adds up, a reversal starts over. Returns
 * whether the swipe has gone far enough to dismiss.
 */
export function createSwipeCounter(threshold = SWIPE_THRESHOLD) {
  let lastY: number | null = null
  let travelled = 0
  return {
    start(y: number) {
      lastY = y
      travelled = 0
    },
    move(y: number) {
      if (lastY === null) lastY = y
      const delta = lastY - y // positive while the finger moves up
      lastY = y
      if (delta === 0) return false
      if (Math.sign(delta) !== Math.sign(travelled) && travelled !== 0) travelled = 0
      travelled += delta
      return travelled >= threshold
    },
  }
}

/**
 * The full-screen overlay of `/` (spec 1 §2, Splash): types the wordmark, shows the tagline,
 * and leaves on a wheel down, a swipe up, a click, or any key that moves around the page. It is
 * decoration for assistive technology: the page behind is never hidden from it, and a focus
 * landing outside the overlay dismisses it.
 */
export function Splash({ onDismiss, onGone }: { onDismiss?: () => void; onGone: () => void }) {
  const prefersReducedMotion = usePrefersReducedMotion()
  const [phase, setPhase] = useState<'showing' | 'dismissing'>('showing')
  const [typedSoFar, setTyped] = useState(0)
  const [hasTypedTagline, setHasTagline] = useState(false)
  // Under reduced motion nothing is typed out: the wordmark and tagline are there at once.
  const typed = prefersReducedMotion ? WORDMARK.length : typedSoFar
  const hasTagline = prefersReducedMotion || hasTypedTagline
  const overlay = useRef<HTMLDivElement>(null)
  const onGoneRef = useRef(onGone)
  const onDismissRef = useRef(onDismiss)
  useEffect(() => {
    onGoneRef.current = onGone
    onDismissRef.current = onDismiss
  })

  // Once it has played, it does not play again in this visit (back to '/', or a reload).
  useEffect(markSplashSeen, [])

  // Typewriter: one character every 300 ms, the tagline 300 ms after the last.
  useEffect(() => {
    if (prefersReducedMotion) return
    if (typedSoFar < WORDMARK.length) {
      const id = window.setTimeout(() => setTyped((n) => n + 1), TYPE_STEP_MS)
      return () => window.clearTimeout(id)
    }
    const id = window.setTimeout(() => setHasTagline(true), TAGLINE_DELAY_MS)
    return () => window.clearTimeout(id)
  }, [typedSoFar, prefersReducedMotion])

  // While it shows, the page does not scroll; it scrolls again when the overlay is removed.
  useEffect(() => {
    const root = document.documentElement
    const previous = root.style.overflow
    root.style.overflow = 'hidden'
    return () => {
      root.style.overflow = previous
    }
  }, [])

  useEffect(() => {
    if (phase !== 'dismissing') return
    onDismissRef.current?.()
    const id = window.setTimeout(() => onGoneRef.current(), REMOVE_AFTER_MS)
    return () => window.clearTimeout(id)
  }, [phase])

  useEffect(() => {
    if (phase !== 'showing') return
    const dismiss = () => setPhase('dismissing')
    const swipe = createSwipeCounter()
    const onWheel = (e: WheelEvent) => {
      if (e.deltaY > 0) dismiss()
    }
    const onTouchStart = (e: TouchEvent) => swipe.start(e.touches[0]?.clientY ?? 0)
    const onTouchMove = (e: TouchEvent) => {
      if (swipe.move(e.touches[0]?.clientY ?? 0)) dismiss()
    }
    const onKeyDown = (e: KeyboardEvent) => {
      if (DISMISS_KEYS.has(e.key)) dismiss()
    }
    const onFocusIn = (e: FocusEvent) => {
      if (!overlay.current?.contains(e.target as Node)) dismiss()
    }
    window.addEventListener('wheel', onWheel, { passive: true })
    window.addEventListener('touchstart', onTouchStart, { passive: true })
    window.addEventListener('touchmove', onTouchMove, { passive: true })
    window.addEventListener('keydown', onKeyDown)
    document.addEventListener('focusin', onFocusIn)
    return () => {
      window.removeEventListener('wheel', onWheel)
      window.removeEventListener('touchstart', onTouchStart)
      window.removeEventListener('touchmove', onTouchMove)
      window.removeEventListener('keydown', onKeyDown)
      document.removeEventListener('focusin', onFocusIn)
    }
  }, [phase])

  const isLeaving = phase === 'dismissing'
  return (
    <div
      ref={overlay}
      data-testid="splash"
      data-splash
      data-phase={phase}
      className={`fixed inset-0 z-[120] flex flex-col items-center justify-between bg-ink px-6 py-10 text-paper transition-[opacity,transform] duration-[750ms] ease-in-out motion-reduce:transform-none ${
        isLeaving ? '-translate-y-full opacity-0 motion-reduce:translate-y-0' : ''
      }`}
    >
      <div aria-hidden />
      <div className="grid justify-items-center gap-4 text-center">
        <p className="min-h-[1lh] font-mono text-6xl font-semibold tracking-tight sm:text-8xl">
          <span className="sr-only">{WORDMARK}</span>
          {/* The cursor hangs after the typed letters without taking room, so the wordmark
              stays centred once the cursor is gone. */}
          <span aria-hidden className="relative inline-block h-[1lh] align-top">
            <span data-wordmark>{WORDMARK.slice(0, typed)}</span>
            <span
              data-cursor
              // The cursor blinks while typing and goes once the tagline is up (a running
              // pulse would override the opacity, so it stops too).
              className={`absolute inset-y-0 left-full ml-1 w-[0.5ch] bg-paper ${
                typed < WORDMARK.length || !hasTagline
                  ? 'animate-pulse motion-reduce:animate-none'
                  : 'opacity-0'
              }`}
            />
          </span>
        </p>
        <p
          className={`font-mono text-lg text-paper/80 transition-opacity duration-500 motion-reduce:transition-none sm:text-xl ${
            hasTagline ? 'opacity-100' : 'opacity-0'
          }`}
        >
          {SPLASH_TAGLINE[0]}
          <br className="sm:hidden" />
          <span className="hidden sm:inline"> </span>
          {SPLASH_TAGLINE[1]}
        </p>
      </div>
      <button
        type="button"
        onClick={() => setPhase('dismissing')}
        className="grid cursor-pointer justify-items-center gap-1 rounded-sm px-4 py-2 font-mono text-sm text-paper/90 hover:text-paper"
      >
        this way in
        <svg
          aria-hidden
          viewBox="0 0 24 24"
          className="size-5 animate-bounce fill-none stroke-current stroke-2 motion-reduce:animate-none"
        >
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>
    </div>
  )
}
