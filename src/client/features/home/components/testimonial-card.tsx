import { useState } from 'react'
import { useAnimationGate, useInterval } from '../hooks/use-animation-gate'
import { TESTIMONIALS } from '../lib/copy'

/** Spec 1 §2: six quotes, a new one every 8 s, with dots to pick one. */
export function TestimonialCard() {
  const [index, setIndex] = useState(0)
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  useInterval(() => setIndex((i) => (i + 1) % TESTIMONIALS.length), 8000, isActive)
  const current = TESTIMONIALS[index]!

  return (
    <section
      ref={ref}
      aria-roledescription="carousel"
      aria-label="What members say"
      className="flex h-full flex-col justify-between gap-6 rounded-sm border border-line bg-accent-soft p-6"
    >
      <figure className="grid gap-3">
        <blockquote className="text-lg leading-relaxed text-balance">
          &ldquo;{current.quote}&rdquo;
        </blockquote>
        <figcaption className="font-mono text-sm text-ink-muted">— {current.author}</figcaption>
      </figure>
      <div className="flex gap-1" role="group" aria-label="Choose a quote">
        {TESTIMONIALS.map((t, i) => (
          <button
            key={t.author}
            type="button"
            aria-label={`Quote ${i + 1} of ${TESTIMONIALS.length}`}
            aria-current={i === index || undefined}
            onClick={() => setIndex(i)}
            className="grid size-6 cursor-pointer place-items-center"
          >
            <span
              aria-hidden
              className={`block size-2 rounded-full ${i === index ? 'bg-accent' : 'bg-ink/25'}`}
            />
          </button>
        ))}
      </div>
    </section>
  )
}
