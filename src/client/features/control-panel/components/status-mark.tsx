import { Check, Minus } from 'lucide-react'

/** A notice or completion state: a green check with words for screen readers, or a dash. */
export function StatusMark({ done, doneLabel, notDoneLabel }: StatusMarkProps) {
  return done ? (
    <span className="inline-flex items-center gap-1 font-mono text-xs text-accent">
      <Check aria-hidden className="size-5 text-green-700" strokeWidth={3} />
      <span className="sr-only">{doneLabel}</span>
    </span>
  ) : (
    <span className="inline-flex items-center text-ink-muted">
      <Minus aria-hidden className="size-4" />
      <span className="sr-only">{notDoneLabel}</span>
    </span>
  )
}

type StatusMarkProps = { done: boolean; doneLabel: string; notDoneLabel: string }
