import type { Db } from '../../db/client'
import { cachedByVersion, type CachedRead } from '../../db/cache-versions'
import {
  PODCLUB_CARDS_NEW_ROWS,
  PODCLUB_CARDS_READ,
  readUpcomingPodclubs,
} from './podclubs.queries'
import { encode, pickEncoding, type ContentEncoding } from '../../lib/content-encoding'

/** Answers below this size go out as they are (compressing them saves less than it costs). */
export const COMPRESS_THRESHOLD = 1024

/** The feed: the upcoming podclubs as cards. */
export const FEED_READ: CachedRead = {
  name: 'feed',
  versions: ['podclubs'],
  dependsOn: PODCLUB_CARDS_READ,
  newRowsSeenThrough: PODCLUB_CARDS_NEW_ROWS,
}

type Entry = {
  body: Buffer
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>
}

/**
 * The upcoming feed, serialized once per version of the podclubs and shared by every viewer (the
 * page works out 'registered' from the usernames): `cachedByVersion`, so once a write the feed
 * shows is acknowledged every process (and every app instance on one PGlite) builds it again,
 * and requests arriving together for a new version wait for one build. The compressed forms are
 * made once per version, when a client first asks for them.
 */
export function createFeedCache(db: Db) {
  const entry = cachedByVersion(db, FEED_READ, async (): Promise<Entry> => {
    const list = await readUpcomingPodclubs(db)
    return { body: Buffer.from(JSON.stringify({ data: list })), encoded: {} }
  })

  return {
    /** The feed's JSON body in the best encoding the client accepts. */
    async read(
      acceptEncoding: string | undefined,
    ): Promise<{ body: Buffer; encoding: ContentEncoding }> {
      const feed = await entry('feed')
      const encoding =
        feed.body.length < COMPRESS_THRESHOLD ? 'identity' : pickEncoding(acceptEncoding)
      if (encoding === 'identity') return { body: feed.body, encoding }
      const encoded = (feed.encoded[encoding] ??= encode(feed.body, encoding, {
        brotliQuality: 6,
      }))
      return { body: await encoded, encoding }
    },
  }
}

export type FeedCache = ReturnType<typeof createFeedCache>
