import { useState } from 'react'
import { useAnimationGate, useInterval } from '../hooks/use-animation-gate'
import { TESTIMONIALS } from '../lib/copy'

/** Spec 1 §2: six quotes, a new one every 8 s, with dots to pick one. */
export function TestimonialCard() {
  const [index, setIndex] = useState(0)
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  useInterval(() => setIndex((i) => (i + 1) % TESTIMONIALS.length), 8000, isActive)

  return (
    <section
      ref={ref}
      aria-roledescription="carousel"
      aria-label="What members say"
      className="flex h-full flex-col justify-between gap-6 rounded-sm border border-line bg-accent-soft p-6"
    >
      {/*
       * Every quote is laid out in the same place, the others invisible, so the card is as tall
       * as the longest and the cards packed under it in the feed stay put as the quotes turn.
       */}
      <div className="grid">
        {TESTIMONIALS.map((quote, i) => (
          <figure
            key={quote.author}
            aria-hidden={i === index ? undefined : true}
            className={`col-start-1 row-start-1 grid content-start gap-3 ${
              i === index ? '' : 'invisible'
            }`}
          >
            <blockquote className="text-lg leading-relaxed text-balance">
              &ldquo;{quote.quote}&rdquo;
            </blockquote>
            <figcaption className="font-mono text-sm text-ink-muted">— {quote.author}</figcaption>
          </figure>
        ))}
      </div>
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
