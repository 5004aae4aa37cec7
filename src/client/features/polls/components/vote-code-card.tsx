import { useEffect, useId, useState } from 'react'
import { createPollInviteBodySchema } from '#contract/polls'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { useRequestVoteCode } from '../api/request-vote-code'

/** Spec 2 §9: the 'code sent' message hides after 3 seconds. */
export const CODE_SENT_MS = 3000

/** The '#voteordie' card: a visitor asks for a vote code by e-mail while the poll is open. */
export function VoteCodeCard({ pollId }: { pollId: string }) {
  const id = useId()
  const form = useContractForm(createPollInviteBodySchema, { defaultValues: { email: '' } })
  const [isSent, setIsSent] = useState(false)
  const request = useRequestVoteCode(pollId)

  useEffect(() => {
    if (!isSent) return
    const timer = setTimeout(() => setIsSent(false), CODE_SENT_MS)
    return () => clearTimeout(timer)
  }, [isSent])

  const handleSubmit = form.handleSubmit((body) => {
    setIsSent(false)
    request.mutate(body, {
      onSuccess: () => {
        form.reset()
        setIsSent(true)
      },
      onError: (failure) =>
        showServerError(form, failure, {
          title: 'Failed to send invite',
          description: (error) => error.message || 'Failed to send invite',
        }),
    })
  })

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="grid gap-4 rounded-sm border border-ink/80 bg-paper-raised p-5"
    >
      <div className="grid gap-1">
        <h2 id={`${id}-title`} className="font-mono text-lg font-semibold">
          #voteordie
        </h2>
        <p className="text-sm text-ink-muted">
          Enter your email to get a unique vote code. The link we send casts one vote.
        </p>
      </div>
      <form
        noValidate
        onSubmit={handleSubmit}
        aria-busy={request.isPending || undefined}
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
      >
        <Field
          label="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        {/* Level with the input: below the label's line and the gap under it. */}
        <PendingButton
          isPending={request.isPending}
          pendingLabel="[ sending… ]"
          className="sm:mt-7"
        >
          [ send my code ]
        </PendingButton>
      </form>
      <p role="status" className="-mt-2 min-h-5 font-mono text-sm text-accent">
        {isSent ? 'Code sent successfully!' : ''}
      </p>
    </section>
  )
}
