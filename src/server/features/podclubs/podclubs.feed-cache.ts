import type { Db } from '../../db/client'
import { cachedByVersion, type CachedRead } from '../../db/cache-versions'
import { eq } from 'drizzle-orm'
import { podclubs } from '../../db/schema/index'
import {
  PODCLUB_SEATS_READ,
  PODCLUB_TEXTS_READ,
  readPodclubSeats,
  readPodclubTexts,
} from './podclubs.queries'
import { encode, pickEncoding, type ContentEncoding } from '../../lib/content-encoding'

/** Answers below this size go out as they are (compressing them saves less than it costs). */
export const COMPRESS_THRESHOLD = 1024

/** The feed's texts: the upcoming podclubs as cards, without their seats. */
export const FEED_TEXTS_READ: CachedRead = {
  name: 'feed texts',
  versions: ['podclubs'],
  dependsOn: PODCLUB_TEXTS_READ,
  newRowsSeenThrough: { podcasts: 'podclubs', users: 'podclubs' },
}

/** The feed's seats: who holds a seat in each upcoming podclub and who waits (by their names). */
export const FEED_SEATS_READ: CachedRead = {
  name: 'feed seats',
  versions: ['seats', 'podclubs'],
  dependsOn: PODCLUB_SEATS_READ,
  newRowsSeenThrough: { users: 'registrations' },
}

type Texts = {
  ids: number[]
  /** Each podclub's card without its seats, as JSON without its closing brace. */
  cards: string[]
}

type Entry = {
  body: Buffer
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>
}

/**
 * The upcoming feed, shared by every viewer (the page works out 'registered' from the
 * usernames), kept in two parts read and serialized apart (`cachedByVersion`, so once a write the
 * feed shows is acknowledged every process builds the part again): the podclubs' texts, while the
 * `podclubs` version stands, and their seats, while the `seats` version does too. A seat, the
 * most frequent write, reads the seats again (two small queries) and joins them to the texts
 * serialized before; it formats and serializes no text again. Requests arriving together for a
 * new version wait for one read. The compressed forms are made once per body, when a client
 * first asks for them.
 */
export function createFeedCache(db: Db) {
  const texts = cachedByVersion(db, FEED_TEXTS_READ, async (): Promise<Texts> => {
    builds.texts += 1
    const list = await readPodclubTexts(db, eq(podclubs.status, 'upcoming'))
    return {
      ids: list.map((p) => p.id),
      cards: list.map((p) => JSON.stringify(p).slice(0, -1)),
    }
  })
  const seats = cachedByVersion(
    db,
    FEED_SEATS_READ,
    async (ids: string): Promise<Map<number, string>> => {
      builds.seats += 1
      const list = ids === '' ? [] : ids.split(',').map(Number)
      const byPodclub = await readPodclubSeats(db, list)
      // Each podclub's seats as JSON members without the opening brace.
      return new Map([...byPodclub].map(([id, s]) => [id, JSON.stringify(s).slice(1)]))
    },
  )
  /** How many times each part was read and serialized, and the body put together. */
  const builds = { texts: 0, seats: 0, bodies: 0 }
  /** The body last put together, and the parts it was put together from. */
  let last: { texts: Texts; seats: Map<number, string>; entry: Entry } | undefined

  const entry = async (): Promise<Entry> => {
    const t = await texts('feed')
    const s = await seats(t.ids.join(','))
    if (last && last.texts === t && last.seats === s) return last.entry
    builds.bodies += 1
    const cards = t.cards.map((card, i) => `${card},${s.get(t.ids[i]!)!}`)
    const made: Entry = { body: Buffer.from(`{"data":[${cards.join(',')}]}`), encoded: {} }
    last = { texts: t, seats: s, entry: made }
    return made
  }

  return {
    /** How many times each part was built (a copy). */
    builds: () => ({ ...builds }),
    /** The feed's JSON body in the best encoding the client accepts. */
    async read(
      acceptEncoding: string | undefined,
    ): Promise<{ body: Buffer; encoding: ContentEncoding }> {
      const feed = await entry()
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
