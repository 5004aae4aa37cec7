import { useRef, useState } from 'react'
import { seededRandom } from '#client/lib/seeded-random'
import { Link } from 'react-router'
import { Button } from '#client/components/ui/button'
import { useAnimationGate, useWebAnimations } from '../hooks/use-animation-gate'
import { TAGLINES } from '../lib/copy'

/** Four gradients; a card picks one by its instance number. */
const PALETTES = [
  'from-[#1d4a36] to-[#0f2a1e]',
  'from-[#3b2a5c] to-[#1c1430]',
  'from-[#7a3416] to-[#3d1a0b]',
  'from-[#1b3d63] to-[#0c1e33]',
] as const
const SPARKLES = 15
/** The sparkles move in steps of this length, 10 a second, all at once (see useWebAnimations). */
const SPARKLE_STEP_MS = 100

type JoinCardProps = {
  /** Its place in the feed: picks the palette. */
  instance?: number
  /** Picks the tagline and the sparkles (seeded-random.ts), so the server's and the browser's agree. */
  seed: number
}

/** For visitors (spec 1 §2, Join card): a tagline, sparkles and the way to sign up. */
export function JoinCard({ instance = 0, seed }: JoinCardProps) {
  const [{ tagline, sparkles }] = useState(() => {
    const random = seededRandom(seed + instance)
    return {
      tagline: TAGLINES[Math.floor(random() * TAGLINES.length)]!,
      sparkles: drawSparkles(random),
    }
  })
  const palette = PALETTES[((instance % PALETTES.length) + PALETTES.length) % PALETTES.length]
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  return (
    <div
      ref={ref}
      className={`relative flex h-full min-h-[400px] flex-col justify-between overflow-hidden rounded-sm bg-gradient-to-br p-6 text-on-accent ${palette}`}
    >
      <Sparkles sparkles={sparkles} isActive={isActive} />
      <p className="relative font-mono text-2xl leading-tight font-semibold text-balance">
        {tagline}
      </p>
      <div className="relative grid gap-4">
        <p className="text-lg">Ready to talk about more than just the weather?</p>
        <Button asChild variant="inverse">
          <Link to="/register">[ join the club ]</Link>
        </Button>
      </div>
    </div>
  )
}

type Sparkle = {
  left: string
  size: string
  driftMs: number
  twinkleMs: number
  /** How far into its drift and its twinkle it starts, so the card opens already sparkling. */
  driftAtMs: number
  twinkleAtMs: number
}

/** Each sparkle's place, size and pace, drawn once for the card's life, in whole steps. */
function drawSparkles(next: () => number): Sparkle[] {
  const random = (min: number, max: number) => min + next() * (max - min)
  const steps = (min: number, max: number) =>
    Math.round(random(min, max) / SPARKLE_STEP_MS) * SPARKLE_STEP_MS
  return Array.from({ length: SPARKLES }, () => {
    const driftMs = steps(20_000, 80_000)
    const twinkleMs = steps(900, 1_400)
    return {
      left: `${random(0, 100).toFixed(2)}%`,
      size: `${random(1.6, 5.2).toFixed(1)}px`,
      driftMs,
      twinkleMs,
      driftAtMs: steps(0, driftMs),
      twinkleAtMs: steps(0, 2 * twinkleMs),
    }
  })
}

/**
 * 15 points drifting up the card and twinkling, each a Web Animation of transform or opacity
 * that the compositor runs, in 100 ms steps (a drift of a pixel or so, a tenth of a twinkle):
 * the page's main thread wakes 10 times a second for them, not at every frame. They pause off
 * screen or in a hidden tab, and stand still, scattered, for reduced motion.
 */
function Sparkles({ sparkles, isActive }: { sparkles: Sparkle[]; isActive: boolean }) {
  const layer = useRef<HTMLDivElement>(null)
  useWebAnimations(
    () => {
      const columns = [...(layer.current?.children ?? [])] as HTMLElement[]
      return columns.flatMap((column, i) => {
        const sparkle = sparkles[i]!
        const dot = column.firstElementChild!
        return [
          // The column is as tall as the card: 100% of its height takes the point from the bottom.
          column.animate([{ transform: 'translateY(100%)' }, { transform: 'translateY(-6px)' }], {
            duration: sparkle.driftMs,
            delay: -sparkle.driftAtMs,
            iterations: Infinity,
            easing: `steps(${sparkle.driftMs / SPARKLE_STEP_MS})`,
          }),
          dot.animate([{ opacity: 0.35, easing: 'ease-in-out' }, { opacity: 1 }], {
            duration: sparkle.twinkleMs,
            delay: -sparkle.twinkleAtMs,
            iterations: Infinity,
            direction: 'alternate',
            easing: `steps(${sparkle.twinkleMs / SPARKLE_STEP_MS})`,
          }),
        ]
      })
    },
    isActive,
    { stepMs: SPARKLE_STEP_MS },
  )
  return (
    <div ref={layer} aria-hidden className="pointer-events-none absolute inset-0">
      {sparkles.map((sparkle, i) => (
        <span key={i} className="absolute inset-y-0" style={{ left: sparkle.left }}>
          <span
            className="block rounded-full bg-[#fffae6] opacity-70"
            style={{ width: sparkle.size, height: sparkle.size }}
          />
        </span>
      ))}
    </div>
  )
}
