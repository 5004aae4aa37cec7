import type { PollResult } from '#contract/polls'
import { Button } from '#client/components/ui/button'

type PollOptionProps = {
  option: PollResult
  isWinner: boolean
  canVote: boolean
  isVoting: boolean
  onVote: (optionId: number) => void
}

const votesLabel = (votes: number) => `${votes} ${votes === 1 ? 'vote' : 'votes'}`

/** One option: what it is, how it stands (in words and as a bar) and, with a code, a Vote button. */
export function PollOption({ option, isWinner, canVote, isVoting, onVote }: PollOptionProps) {
  return (
    <li className="grid gap-3 rounded-sm border border-line bg-paper-raised p-4 sm:p-5">
      <div className="grid min-w-0 gap-1">
        <h2 className="font-mono text-base font-semibold">
          {option.title}
          {isWinner ? (
            // The space keeps 'Winner' a word of its own in the heading's accessible name.
            <>
              {' '}
              <span className="ml-1 inline-block rounded-sm border border-ink px-1.5 py-0.5 align-middle text-xs font-semibold">
                Winner
              </span>
            </>
          ) : null}
        </h2>
        {option.podcast ? <p className="text-sm text-ink-muted">{option.podcast}</p> : null}
      </div>
      {option.description ? <p className="text-sm">{option.description}</p> : null}
      {option.link ? (
        <a
          href={option.link}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`listen to ${option.title} (opens in a new tab)`}
          className="w-fit rounded-sm font-mono text-sm break-all text-accent underline underline-offset-4"
        >
          listen ↗
        </a>
      ) : null}
      <div className="grid gap-1.5">
        <p className="flex justify-between font-mono text-sm">
          <span className="font-semibold">{option.percentage}%</span>
          <span>{votesLabel(option.votes)}</span>
        </p>
        <div aria-hidden className="h-3 overflow-hidden rounded-sm border border-ink/70 bg-paper">
          <div className="h-full bg-ink" style={{ width: `${option.percentage}%` }} />
        </div>
      </div>
      {canVote ? (
        <Button
          className="w-full sm:w-auto sm:justify-self-end"
          disabled={isVoting}
          aria-label={`[ vote ] for ${option.title}`}
          onClick={() => onVote(option.id)}
        >
          [ vote ]
        </Button>
      ) : null}
    </li>
  )
}
