import { useId, useState } from 'react'
import { useWatch } from 'react-hook-form'
import {
  createHindsightBodySchema,
  HINDSIGHT_MAX_LENGTH,
  HINDSIGHTS_PER_PODCLUB,
  type Hindsight,
} from '#contract/podclub-detail'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { Card, CardTitle } from '#client/components/ui/card'
import { LinkifiedText } from '#client/components/ui/linkified-text'
import { truncateWords } from '#client/lib/text'
import { toast } from '#client/lib/toast'
import { useSubmitHindsight } from '../api/submit-hindsight'

const TRUNCATE_AFTER_WORDS = 30

function HindsightMessage({ message }: { message: string }) {
  const [isExpanded, setIsExpanded] = useState(false)
  const short = truncateWords(message, TRUNCATE_AFTER_WORDS)
  return (
    <p className="whitespace-pre-line">
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
  const form = useContractForm(createHindsightBodySchema, { defaultValues: { hindsight: '' } })
  const text = useWatch({ control: form.control, name: 'hindsight' })
  const submit = useSubmitHindsight(podclubId)
  const isFull = hindsights.length >= HINDSIGHTS_PER_PODCLUB
  // Spec 2 §4–5: whitespace-only text is never sent; the button waits for some.
  const isEmpty = text.trim() === ''

  // The schema trims the text, and refuses it when nothing is left.
  const handleSubmit = form.handleSubmit(({ hindsight }) =>
    submit.mutate(hindsight, {
      onSuccess: async () => {
        form.reset()
        toast({ title: 'Hindsight submitted successfully' })
        await onPosted()
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to submit hindsight' }),
    }),
  )

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
        <form
          noValidate
          onSubmit={handleSubmit}
          className="mt-4 grid gap-2"
          aria-busy={submit.isPending}
        >
          <Field
            as="textarea"
            label="your hindsight"
            maxLength={HINDSIGHT_MAX_LENGTH}
            placeholder="what stayed with you after the discussion?"
            error={form.formState.errors.hindsight?.message}
            {...form.register('hindsight')}
          />
          <div className="flex items-center justify-between gap-3">
            <span className="font-mono text-xs text-ink-muted">
              {text.trim().length} / {HINDSIGHT_MAX_LENGTH}
            </span>
            <PendingButton
              isPending={submit.isPending}
              pendingLabel="[ posting… ]"
              disabled={isEmpty}
            >
              [ post hindsight ]
            </PendingButton>
          </div>
        </form>
      )}
    </Card>
  )
}
