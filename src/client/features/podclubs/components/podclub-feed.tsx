import { memo, Suspense, type ReactNode } from 'react'
import type { Podclub } from '#contract/podclubs'
import { Link } from 'react-router'
import { pages } from '#contract/pages'
import { useMasonryGrid } from '#client/components/layouts/use-masonry-grid'
import { Button } from '#client/components/ui/button'
import { useUpcomingPodclubs } from '../api/get-upcoming-podclubs'
import { buildFeed, type BlockType } from '../lib/build-feed'
import { PodclubCard } from './podclub-card'

export const FEED_ERROR_MESSAGE = 'Failed to load podclubs. Please try again later.'
export const EMPTY_FEED_TITLE = 'Nothing is scheduled yet'

/** The gap between the feed's cards, px: Tailwind's gap-x-4, and the space under each card. */
const CARD_GAP_PX = 16

type PodclubFeedProps = {
  /** The logged-in member's username; null for a visitor. */
  username: string | null
  /** Draws a promotional block; `index` is its place in the feed (palettes vary by it). */
  renderBlock: (block: BlockType, index: number) => ReactNode
}

/** The home feed (spec 1 §2): loading, error with retry, or podclubs interleaved with blocks. */
export function PodclubFeed({ username, renderBlock }: PodclubFeedProps) {
  const feed = useUpcomingPodclubs()
  const masonry = useMasonryGrid(CARD_GAP_PX)

  if (feed.isPending) {
    // A screen tall: the footer waits below the fold instead of jumping when the content comes.
    return (
      <div role="status" className="grid min-h-dvh content-start justify-items-center gap-3 py-24">
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
    <>
      {feed.data.length === 0 ? <EmptyFeed isMember={!!username} /> : null}
      {/* Cards of many heights: packed in columns (useMasonryGrid), not in rows of equal height. */}
      <ul
        ref={masonry}
        aria-label="Upcoming podclubs"
        className="grid grid-cols-1 gap-x-4 gap-y-4 data-packed:auto-rows-[4px] data-packed:gap-y-0 md:grid-cols-2 lg:grid-cols-3"
      >
        {buildFeed(feed.data, !!username).map((item, index) => (
          <li key={item.key} className="min-w-0 self-start">
            {/* A boundary per card: React hydrates the feed a card at a time, the one pressed first. */}
            <Suspense>
              <FeedEntry
                podclub={item.kind === 'podclub' ? item.podclub : undefined}
                block={item.kind === 'block' ? item.block : undefined}
                index={index}
                username={username}
                renderBlock={renderBlock}
              />
            </Suspense>
          </li>
        ))}
      </ul>
    </>
  )
}

type FeedEntryProps = Pick<PodclubFeedProps, 'username' | 'renderBlock'> & {
  podclub: Podclub | undefined
  block: BlockType | undefined
  index: number
}

/**
 * One card of the feed, rendered again only when its own props change: a live seat change
 * replaces one podclub in the feed's data (the others keep their objects, as a read of the feed
 * again does through the query cache's structural sharing), so one card renders, not the feed.
 */
const FeedEntry = memo(function FeedEntry({
  podclub,
  block,
  index,
  username,
  renderBlock,
}: FeedEntryProps) {
  if (podclub) return <PodclubCard podclub={podclub} username={username} />
  return block ? renderBlock(block, index) : null
})

/** With no podclub coming up, the feed says so and shows the way to propose one. */
function EmptyFeed({ isMember }: { isMember: boolean }) {
  return (
    <section
      aria-labelledby="empty-feed-title"
      className="grid justify-items-start gap-3 rounded-sm border border-dashed border-ink/40 bg-paper-raised p-4 sm:p-6"
    >
      <h2 id="empty-feed-title" className="font-mono text-lg font-semibold">
        {EMPTY_FEED_TITLE}
      </h2>
      {isMember ? (
        <>
          <p>
            No podclub is coming up right now. Pick an episode you would love to talk about and
            propose it: you will be its podmeister.
          </p>
          <Button asChild>
            <Link to={pages.propose.path}>[ propose a podclub ]</Link>
          </Button>
        </>
      ) : (
        <>
          <p>
            No podclub is coming up right now. Members propose them: log in to propose one, or join
            the club with an invite code.
          </p>
          <Button asChild>
            <Link to={pages.login.path}>[ login to propose one ]</Link>
          </Button>
        </>
      )}
    </section>
  )
}
