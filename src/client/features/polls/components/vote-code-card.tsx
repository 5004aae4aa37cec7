import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { createPollInviteBodySchema } from '#contract/polls'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useRequestVoteCode } from '../api/request-vote-code'

/** Spec 2 §9: the 'code sent' message hides after 3 seconds. */
export const CODE_SENT_MS = 3000

/** The '#voteordie' card: a visitor asks for a vote code by e-mail while the poll is open. */
export function VoteCodeCard({ pollId }: { pollId: string }) {
  const id = useId()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [isSent, setIsSent] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const request = useRequestVoteCode(pollId)

  useEffect(() => {
    if (!isSent) return
    const timer = setTimeout(() => setIsSent(false), CODE_SENT_MS)
    return () => clearTimeout(timer)
  }, [isSent])

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (request.isPending) return
    const parsed = createPollInviteBodySchema.safeParse({ email })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address')
      input.current?.focus()
      return
    }
    setError(null)
    setIsSent(false)
    request.mutate(parsed.data, {
      onSuccess: () => {
        setEmail('')
        setIsSent(true)
      },
      onError: (failure) => {
        toast({
          title: 'Failed to send invite',
          description: failure.message || 'Failed to send invite',
          variant: 'destructive',
        })
      },
    })
  }

  const inputId = `${id}-email`
  const errorId = `${id}-error`
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
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <div className="grid gap-2">
          <Label htmlFor={inputId}>email</Label>
          <Input
            ref={input}
            id={inputId}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value)
              if (error) setError(null)
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </div>
        <Button type="submit" disabled={request.isPending}>
          {request.isPending ? (
            <>
              <Spinner />[ sending… ]
            </>
          ) : (
            '[ send my code ]'
          )}
        </Button>
        {error ? (
          <p id={errorId} className="text-sm text-danger sm:col-span-2">
            {error}
          </p>
        ) : null}
      </form>
      <p role="status" className="-mt-2 min-h-5 font-mono text-sm text-accent">
        {isSent ? 'Code sent successfully!' : ''}
      </p>
    </section>
  )
}
