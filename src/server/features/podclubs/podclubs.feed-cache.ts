import type { Db } from '../../db/client'
import {
  cachedByVersion,
  cachedManyByVersion,
  type CachedRead,
  cacheVersionsOf,
  holdsAll,
  sameStamp,
  stampOf,
} from '../../db/cache-versions'
import { eq } from 'drizzle-orm'
import { podclubs } from '../../db/schema/index'
import {
  PODCLUB_SEATS_BY_PODCLUB,
  PODCLUB_SEATS_READ,
  PODCLUB_TEXTS_READ,
  type PodclubSeats,
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

/**
 * The seats of one podclub of the feed: who holds a seat and who waits (by their names), kept
 * while its own seats' version stands (`seats:<id>`) and the names do.
 */
export const FEED_SEATS_READ: CachedRead = {
  name: 'feed seats',
  versions: ['podclubs'],
  perKey: PODCLUB_SEATS_BY_PODCLUB,
  dependsOn: PODCLUB_SEATS_READ,
  newRowsSeenThrough: { users: 'registrations' },
}

type Texts = {
  ids: number[]
  /** Each podclub's card without its seats, as JSON without its closing brace. */
  cards: string[]
}

/** One podclub's seats, and the same as JSON members without the opening brace. */
type Seats = { seats: PodclubSeats; json: string }

type Entry = {
  body: Buffer
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>
}

/**
 * The upcoming feed, shared by every viewer (the page works out 'registered' from the
 * usernames), put together from parts read and serialized apart (`cachedByVersion`, so once a
 * write the feed shows is acknowledged every process builds the part again): the podclubs'
 * texts, while the `podclubs` version stands, and each podclub's seats, while its own seats'
 * version (`seats:<id>`) does too. A seat, the most frequent write, reads that one podclub's seats
 * again and joins them to the parts serialized before; on PGlite the seat's own transaction reads
 * them (`keptInWrites`), so the next request asks the database nothing at all. A request reads the
 * versions of every part once, and answers the body it put together last while they stand.
 * Requests arriving together for a new version wait for one read. The compressed forms are made
 * once per body, when a client first asks for them.
 */
export function createFeedCache(db: Db) {
  const reader = cacheVersionsOf(db)
  const texts = cachedByVersion(db, FEED_TEXTS_READ, async (): Promise<Texts> => {
    builds.texts += 1
    const list = await readPodclubTexts(db, eq(podclubs.status, 'upcoming'))
    return {
      ids: list.map((p) => p.id),
      cards: list.map((p) => JSON.stringify(p).slice(0, -1)),
    }
  })
  const seats = cachedManyByVersion(
    db,
    FEED_SEATS_READ,
    async (ids: readonly number[], on): Promise<Map<number, Seats>> => {
      builds.seats += ids.length
      const byPodclub = await readPodclubSeats(on, ids)
      return new Map(
        [...byPodclub].map(([id, seats]) => [id, { seats, json: JSON.stringify(seats).slice(1) }]),
      )
    },
    { keptInWrites: true },
  )
  /**
   * How many times the texts were read and serialized, how many podclubs' seats were, and how
   * many times the body was put together.
   */
  const builds = { texts: 0, seats: 0, bodies: 0 }
  /** The body last put together: the versions of its parts, and the parts. */
  let last:
    | { names: string[]; stamp: number[]; texts: Texts; seats: Map<number, Seats>; entry: Entry }
    | undefined

  const entry = async (): Promise<Entry> => {
    let names: string[] = last?.names ?? [...FEED_TEXTS_READ.versions]
    for (;;) {
      const versions = await reader.current(names)
      if (last && last.names === names && sameStamp(stampOf(names, versions), last.stamp))
        return last.entry
      const t = await texts('feed', versions)
      const wanted = [...FEED_TEXTS_READ.versions, ...seats.names(t.ids)]
      // A podclub the versions were not read for (the feed changed): read them all again.
      if (!holdsAll(versions, wanted)) {
        names = wanted
        continue
      }
      const s = await seats.many(t.ids, versions)
      const stamp = stampOf(wanted, versions)
      if (last?.texts === t && t.ids.every((id) => last!.seats.get(id) === s.get(id))) {
        last = { ...last, names: wanted, stamp }
        return last.entry
      }
      builds.bodies += 1
      const cards = t.cards.map((card, i) => `${card},${s.get(t.ids[i]!)!.json}`)
      const made: Entry = { body: Buffer.from(`{"data":[${cards.join(',')}]}`), encoded: {} }
      last = { names: wanted, stamp, texts: t, seats: s, entry: made }
      return made
    }
  }

  return {
    /** How many times each part was built (a copy, see `builds`). */
    builds: () => ({ ...builds }),
    /**
     * The seats of podclub `id` as the feed shows them now, from the same parts (what the live
     * stream sends when they change); undefined when it is not in the feed (not upcoming).
     */
    async seatsOf(id: number): Promise<PodclubSeats | undefined> {
      const versions = await reader.current([...FEED_TEXTS_READ.versions, ...seats.names([id])])
      const t = await texts('feed', versions)
      if (!t.ids.includes(id)) return undefined
      return (await seats.get(id, versions)).seats
    },
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
