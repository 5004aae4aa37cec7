import { useEffect, useRef, useState } from 'react'
import { mediumClubDateTime } from '#contract/club-time'
import { voteCodeErrors, VOTE_CODE_DISPLAY_LENGTH, type Poll } from '#contract/polls'
import { NotFoundPage } from '#client/components/errors/not-found-page'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { Button } from '#client/components/ui/button'
import { Spinner } from '#client/components/ui/spinner'
import { isNotFoundError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useCastVote } from '../api/cast-vote'
import { usePoll } from '../api/get-poll'
import { clearConfetti, confettiUntil, hasVotedIn, markVoted } from '../lib/session-flags'
import { Confetti } from './confetti'
import { PollOption } from './poll-option'
import { VoteCodeCard } from './vote-code-card'

type PollWindowProps = {
  pollId: string
  voteCode?: string
}

/**
 * The poll window (spec 2, Poll window). Mount it with `key={pollId}`: all of its state (voted,
 * celebration, messages) belongs to one poll.
 */
export function PollWindow({ pollId, voteCode }: PollWindowProps) {
  const query = usePoll(pollId, voteCode)
  const [hasVoted, setHasVoted] = useState(() => hasVotedIn(pollId))
  const [celebrateUntil, setCelebrateUntil] = useState(() => confettiUntil(pollId))
  const status = useRef<HTMLParagraphElement>(null)
  const cast = useCastVote(pollId)

  useEffect(() => {
    if (celebrateUntil === null) return
    const timer = setTimeout(
      () => {
        setCelebrateUntil(null)
        clearConfetti(pollId)
      },
      Math.max(0, celebrateUntil - Date.now()),
    )
    return () => clearTimeout(timer)
  }, [celebrateUntil, pollId])

  function handleVote(optionId: number) {
    if (!voteCode || cast.isPending) return
    cast.mutate(
      { voteCode, optionId },
      {
        onSuccess: () => {
          setHasVoted(true)
          setCelebrateUntil(markVoted(pollId))
          // The pressed button is gone; keep keyboard and screen-reader users in the window.
          status.current?.focus()
        },
        onError: (failure) => {
          toast({
            title: 'Failed to cast vote',
            description: failure.message || 'Failed to cast vote',
            variant: 'destructive',
          })
        },
      },
    )
  }

  if (query.isPending) {
    return (
      <ContentLayout title="poll">
        <p role="status" className="flex items-center gap-2 font-mono text-sm text-ink-muted">
          <Spinner /> Loading poll…
        </p>
      </ContentLayout>
    )
  }

  // A poll that does not exist (a mistyped or an old link): the not-found page, with the way home.
  if (query.isError && isNotFoundError(query.error)) return <NotFoundPage />
  if (query.isError) {
    return (
      <ContentLayout title="Error Loading Poll">
        <div className="grid justify-items-start gap-4">
          <p className="text-danger">{query.error.message || 'Failed to load poll data'}</p>
          <Button
            variant="outline"
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
          >
            {query.isFetching ? <Spinner /> : null}
            Try Again
          </Button>
        </div>
      </ContentLayout>
    )
  }

  const poll = query.data
  const canVote = poll.is_active && !hasVoted && poll.vote_code_valid === true && !!voteCode
  const hasWinner = poll.is_expired && poll.total_votes > 0

  return (
    <ContentLayout title={poll.title}>
      {celebrateUntil !== null ? <Confetti until={celebrateUntil} /> : null}
      <div className="-mt-3 grid gap-1">
        {poll.description ? <p className="text-lg text-balance">{poll.description}</p> : null}
        <p className="font-mono text-sm text-ink-muted">
          {poll.is_expired ? 'closed' : 'closes'} {poll.pretty_date} at {poll.pretty_time}
        </p>
      </div>

      <ol aria-label="Options, most votes first" className="grid gap-3">
        {poll.results.map((option, index) => (
          <PollOption
            key={option.id}
            option={option}
            isWinner={hasWinner && index === 0}
            canVote={canVote}
            isVoting={cast.isPending}
            onVote={handleVote}
          />
        ))}
      </ol>

      <PollFooter
        poll={poll}
        voteCode={voteCode}
        hasVoted={hasVoted}
        isCelebrating={celebrateUntil !== null}
        statusRef={status}
      />

      {poll.is_active ? <VoteCodeCard pollId={pollId} /> : null}
    </ContentLayout>
  )
}

type PollFooterProps = {
  poll: Poll
  voteCode?: string
  hasVoted: boolean
  isCelebrating: boolean
  statusRef: React.RefObject<HTMLParagraphElement | null>
}

function statusText(poll: Poll, hasVoted: boolean) {
  if (poll.is_expired) return 'Voting has closed'
  if (hasVoted) return 'You have voted. Thank you!'
  return 'Voting is open'
}

function PollFooter({ poll, voteCode, hasVoted, isCelebrating, statusRef }: PollFooterProps) {
  const expires = new Date(poll.expires_at)
  return (
    <footer className="grid gap-3 border-t border-line pt-4 font-mono text-sm">
      {/* Beside the status that takes focus after a vote, so it is in view on any screen (the
          page scrolls there). Always in the page, so it is announced when it appears; it lasts
          as long as the celebration, across a reload too. */}
      <p role="status" className="font-semibold text-accent empty:hidden">
        {isCelebrating ? 'Vote submitted successfully!' : ''}
      </p>
      <p ref={statusRef} tabIndex={-1} className="font-semibold outline-none">
        {statusText(poll, hasVoted)}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1">
        <dt className="text-ink-muted">total votes</dt>
        <dd>{poll.total_votes}</dd>
        <dt className="text-ink-muted">{poll.is_expired ? 'expired' : 'expires'}</dt>
        <dd>
          <time dateTime={poll.expires_at}>
            {Number.isNaN(expires.getTime()) ? poll.expires_at : mediumClubDateTime(expires)}
          </time>
        </dd>
        {voteCode ? (
          <>
            <dt className="text-ink-muted">vote code</dt>
            <dd className="wrap-anywhere">
              {voteCode.slice(0, VOTE_CODE_DISPLAY_LENGTH)}…{' '}
              {poll.vote_code_valid ? (
                <span>(valid)</span>
              ) : hasVoted && poll.vote_code_error === voteCodeErrors.used ? (
                <span>(used for your vote)</span>
              ) : (
                <span className="text-danger">
                  (invalid: {poll.vote_code_error ?? voteCodeErrors.invalid})
                </span>
              )}
            </dd>
          </>
        ) : null}
      </dl>
    </footer>
  )
}
