import { useEffect } from 'react'
import { Button } from '#client/components/ui/button'
import { ExpandableText } from '#client/components/ui/expandable-text'
import { deriveLinks } from '#client/lib/links'
import { toast } from '#client/lib/toast'
import { useRandomPastPodclub } from '../api/get-random-past-podclub'

/** Spec 1 §2, Archive card: a random past podclub on mount and on shuffle. */
export function ArchiveCard() {
  const past = useRandomPastPodclub()
  const podclub = past.data

  useEffect(() => {
    if (past.isError) {
      toast({
        title: 'Failed to load archive',
        description: past.error.message || 'Unable to fetch past podclub',
        variant: 'destructive',
      })
    }
  }, [past.isError, past.error])

  const isLoading = past.isFetching
  return (
    <section
      aria-label="From the archive"
      aria-busy={isLoading || undefined}
      className="flex h-full flex-col gap-4 rounded-sm border border-line bg-paper-raised p-6"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-mono text-sm text-ink-muted">from the archive</h2>
        <Button variant="ghost" size="sm" onClick={() => void past.refetch()} disabled={isLoading}>
          [ shuffle ]
        </Button>
      </div>
      {isLoading ? (
        <div className="grid gap-3" aria-hidden>
          <div className="h-6 w-3/4 animate-pulse rounded-sm bg-line motion-reduce:animate-none" />
          <div className="h-4 w-1/2 animate-pulse rounded-sm bg-line motion-reduce:animate-none" />
          <div className="h-16 animate-pulse rounded-sm bg-line motion-reduce:animate-none" />
        </div>
      ) : past.isError ? (
        <p className="text-sm text-ink-muted">Failed to load archive</p>
      ) : !podclub ? (
        <p className="text-sm text-ink-muted">
          The archive is empty for now: the first podclubs are still ahead.
        </p>
      ) : (
        <article className="grid gap-3">
          <div>
            <h3 className="text-lg leading-snug font-semibold">{podclub.episode_title}</h3>
            <p className="font-mono text-sm text-ink-muted">{podclub.podcast.name}</p>
          </div>
          {podclub.description ? (
            <ExpandableText text={podclub.description} className="text-sm" />
          ) : null}
          <ul aria-label="Keywords" className="flex flex-wrap gap-1.5">
            {[podclub.keyword_one, podclub.keyword_two, podclub.keyword_three]
              .filter((k) => k.trim())
              .map((k) => (
                <li key={k} className="rounded-full bg-accent-soft px-2.5 py-0.5 font-mono text-xs">
                  {k}
                </li>
              ))}
          </ul>
          <p className="font-mono text-sm">
            {podclub.participant_count} participants · {podclub.discussion_date}
          </p>
          <ul aria-label="Listen" className="flex flex-wrap gap-2">
            {deriveLinks([podclub.link_one, podclub.link_two, podclub.link_three]).map((link) => (
              <li key={link.url}>
                <a
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-mono text-xs text-accent underline underline-offset-4"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </article>
      )}
    </section>
  )
}
