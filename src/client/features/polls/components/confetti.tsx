import { useEffect, useRef, useState } from 'react'

/** Spec 2 §9: 200 emoji elements for 3 seconds. */
export const CONFETTI_PIECES = 200
const EMOJI = ['🎉', '🎊', '🎧', '🎙️', '✨', '🗳️', '💚', '🥳']

function prefersReducedMotion() {
  return typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false
}

type Piece = {
  emoji: string
  left: number
  size: number
  delay: number
  drift: number
  spin: number
}

function makePieces(): Piece[] {
  return Array.from({ length: CONFETTI_PIECES }, (_, i) => ({
    emoji: EMOJI[i % EMOJI.length]!,
    left: Math.random() * 100,
    size: 14 + Math.random() * 18,
    delay: Math.random() * 0.45,
    drift: (Math.random() - 0.5) * 160,
    spin: (Math.random() - 0.5) * 720,
  }))
}

type ConfettiProps = {
  /** When the celebration ends (ms since epoch); pieces fall in the time that is left. */
  until: number
}

/**
 * Decoration only: hidden from screen readers and from the pointer, so it never stands between
 * anyone and the page. Nothing is drawn when the visitor asks for reduced motion.
 */
export function Confetti({ until }: ConfettiProps) {
  const [isReduced] = useState(prefersReducedMotion)
  const [pieces] = useState(makePieces)
  const layer = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const root = layer.current
    if (!root) return
    const remaining = Math.max(400, until - Date.now())
    const animations: Animation[] = []
    root.querySelectorAll<HTMLElement>('[data-piece]').forEach((element, i) => {
      const piece = pieces[i]!
      if (typeof element.animate !== 'function') return
      animations.push(
        element.animate(
          [
            { transform: 'translate3d(0, -10vh, 0) rotate(0deg)', opacity: 1 },
            {
              transform: `translate3d(${piece.drift}px, 110vh, 0) rotate(${piece.spin}deg)`,
              opacity: 0.9,
            },
          ],
          {
            duration: remaining * (1 - piece.delay),
            delay: remaining * piece.delay,
            easing: 'cubic-bezier(0.25, 0.6, 0.5, 1)',
            fill: 'both',
          },
        ),
      )
    })
    return () => animations.forEach((animation) => animation.cancel())
  }, [pieces, until])

  if (isReduced) return null
  return (
    <div
      ref={layer}
      aria-hidden
      data-testid="confetti"
      className="pointer-events-none fixed inset-0 z-[120] overflow-hidden select-none"
    >
      {pieces.map((piece, i) => (
        <span
          key={i}
          data-piece
          className="absolute top-0"
          style={{
            left: `${piece.left}%`,
            fontSize: `${piece.size}px`,
            transform: 'translateY(-10vh)',
          }}
        >
          {piece.emoji}
        </span>
      ))}
    </div>
  )
}
