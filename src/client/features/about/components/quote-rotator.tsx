import { useEffect, useState } from 'react'

export type Quote = { text: string; author: string }

/** Spec 2 §9: the quote changes every 10 seconds. */
export const QUOTE_INTERVAL_MS = 10_000

/**
 * Cycles through the quotes. The change is not announced to screen readers (it would interrupt
 * every 10 s), and people who ask for reduced motion get no fade.
 */
export function QuoteRotator({ quotes }: { quotes: readonly Quote[] }) {
  const [index, setIndex] = useState(0)
  useEffect(() => {
    if (quotes.length < 2) return
    const timer = setInterval(() => setIndex((i) => (i + 1) % quotes.length), QUOTE_INTERVAL_MS)
    return () => clearInterval(timer)
  }, [quotes.length])
  const quote = quotes[index]
  if (!quote) return null
  return (
    <figure className="grid min-h-40 content-center gap-3 rounded-sm border border-line bg-accent px-6 py-8 text-on-accent sm:px-10">
      <blockquote
        key={index}
        className="font-mono text-lg leading-relaxed text-balance motion-safe:animate-menu-in sm:text-xl"
      >
        “{quote.text}”
      </blockquote>
      <figcaption className="font-mono text-sm opacity-90">— {quote.author}</figcaption>
    </figure>
  )
}
