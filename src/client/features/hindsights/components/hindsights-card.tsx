import { useId, useState, type FormEvent } from 'react'
import {
  HINDSIGHT_MAX_LENGTH,
  HINDSIGHTS_PER_PODCLUB,
  type Hindsight,
} from '#contract/podclub-detail'
import { Button } from '#client/components/ui/button'
import { Card, CardTitle } from '#client/components/ui/card'
import { Label } from '#client/components/ui/label'
import { LinkifiedText } from '#client/components/ui/linkified-text'
import { Spinner } from '#client/components/ui/spinner'
import { Textarea } from '#client/components/ui/textarea'
import { truncateWords } from '#client/lib/text'
import { toast } from '#client/lib/toast'
import { useSubmitHindsight } from '../api/submit-hindsight'

const TRUNCATE_AFTER_WORDS = 30

function HindsightMessage({ message }: { message: string }) {
  const [isExpanded, setIsExpanded] = useState(false)
  const short = truncateWords(message, TRUNCATE_AFTER_WORDS)
  return (
    <p className="break-words whitespace-pre-line">
      <LinkifiedText text={isExpanded || !short.truncated ? message : short.text} />
      {short.truncated ? (
        <>
          {' '}
          <button
            type="button"
            aria-expanded={isExpanded}
            onClick={() => setIsExpanded((v) => !v)}
            className="cursor-pointer font-mono text-sm text-accent underline-offset-4 hover:underline"
          >
            {isExpanded ? '[ show less ]' : '[ read more ]'}
          </button>
        </>
      ) : null}
    </p>
  )
}

type HindsightsCardProps = {
  podclubId: number
  hindsights: Hindsight[]
  /** Called after a successful post, so the page reloads the podclub. */
  onPosted: () => Promise<unknown> | void
}

/** The reflections of a completed podclub's attendees, and the form to add one. */
export function HindsightsCard({ podclubId, hindsights, onPosted }: HindsightsCardProps) {
  const id = useId()
  const [text, setText] = useState('')
  const submit = useSubmitHindsight(podclubId)
  const isFull = hindsights.length >= HINDSIGHTS_PER_PODCLUB
  const isEmpty = text.trim() === ''

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    // Whitespace-only text is never sent (spec 2 §4).
    if (isEmpty || submit.isPending) return
    submit.mutate(text.trim(), {
      onSuccess: async () => {
        setText('')
        toast({ title: 'Hindsight submitted successfully' })
        await onPosted()
      },
      onError: (error) =>
        toast({
          title: 'Failed to submit hindsight',
          description: error.message,
          variant: 'destructive',
        }),
    })
  }

  return (
    <Card aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>
        hindsights ({hindsights.length} / {HINDSIGHTS_PER_PODCLUB})
      </CardTitle>
      <div
        tabIndex={0}
        role="region"
        aria-label="hindsights list"
        className="max-h-96 overflow-y-auto rounded-sm border border-line bg-paper p-3"
      >
        {hindsights.length === 0 ? (
          <p className="text-sm text-ink-muted">no hindsights yet. be the first.</p>
        ) : (
          <ul className="grid gap-4">
            {hindsights.map((h, i) => (
              <li key={i} className="grid gap-1">
                <p className="font-mono text-sm font-semibold">{h.username}</p>
                <HindsightMessage message={h.message} />
              </li>
            ))}
          </ul>
        )}
      </div>
      {isFull ? null : (
        <form onSubmit={handleSubmit} className="mt-4 grid gap-2" aria-busy={submit.isPending}>
          <Label htmlFor={`${id}-text`}>your hindsight</Label>
          <Textarea
            id={`${id}-text`}
            value={text}
            maxLength={HINDSIGHT_MAX_LENGTH}
            onChange={(e) => setText(e.target.value)}
            placeholder="what stayed with you after the discussion?"
          />
          <div className="flex items-center justify-between gap-3">
            <span className="font-mono text-xs text-ink-muted">
              {text.trim().length} / {HINDSIGHT_MAX_LENGTH}
            </span>
            <Button type="submit" disabled={isEmpty || submit.isPending}>
              {submit.isPending ? (
                <>
                  <Spinner />[ posting… ]
                </>
              ) : (
                '[ post hindsight ]'
              )}
            </Button>
          </div>
        </form>
      )}
    </Card>
  )
}
