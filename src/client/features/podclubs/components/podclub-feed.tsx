import type { ReactNode } from 'react'
import { Button } from '#client/components/ui/button'
import { useUpcomingPodclubs } from '../api/get-upcoming-podclubs'
import { buildFeed, type BlockType } from '../lib/build-feed'
import { PodclubCard } from './podclub-card'

export const FEED_ERROR_MESSAGE = 'Failed to load podclubs. Please try again later.'

type PodclubFeedProps = {
  /** The logged-in member's username; null for a visitor. */
  username: string | null
  /** Draws a promotional block; `index` is its place in the feed (palettes vary by it). */
  renderBlock: (block: BlockType, index: number) => ReactNode
}

/** The home feed (spec 1 §2): loading, error with retry, or podclubs interleaved with blocks. */
export function PodclubFeed({ username, renderBlock }: PodclubFeedProps) {
  const feed = useUpcomingPodclubs()

  if (feed.isPending) {
    return (
      <div role="status" className="grid place-items-center gap-3 py-24">
        <img
          src="/record.svg"
          alt=""
          width={64}
          height={64}
          className="size-16 animate-spin [animation-duration:2.4s] motion-reduce:animate-none"
        />
        <p className="font-mono text-sm text-ink-muted">loading podclubs…</p>
      </div>
    )
  }
  if (feed.isError) {
    return (
      <div role="alert" className="grid justify-items-center gap-4 py-24 text-center">
        <p>{FEED_ERROR_MESSAGE}</p>
        <Button variant="outline" onClick={() => void feed.refetch()} disabled={feed.isFetching}>
          Try Again
        </Button>
      </div>
    )
  }

  return (
    <ul
      aria-label="Upcoming podclubs"
      className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3"
    >
      {buildFeed(feed.data, !!username).map((item, index) => (
        <li key={item.key} className="min-w-0">
          {item.kind === 'podclub' ? (
            <PodclubCard podclub={item.podclub} username={username} />
          ) : (
            renderBlock(item.block, index)
          )}
        </li>
      ))}
    </ul>
  )
}
