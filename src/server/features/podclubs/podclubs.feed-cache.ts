import type { Db } from '../../db/client'
import { pgliteWrites } from '../../db/pglite-writes'
import { readUpcomingPodclubs } from './podclubs.queries'
import { readPodclubsVersion } from './podclubs.version'
import { encode, pickEncoding, type ContentEncoding } from '../../lib/content-encoding'

/** Answers below this size go out as they are (compressing them saves less than it costs). */
export const COMPRESS_THRESHOLD = 1024

type Entry = {
  version: number
  body: Buffer
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>
}

/**
 * The upcoming feed, serialized once per version and shared by every viewer (the page works out
 * 'registered' from the usernames). The database raises the version in the transaction of every
 * change the feed shows, so once a write is acknowledged every process (and every app instance
 * on one PGlite) sees the new version and rebuilds. On PostgreSQL each request waits for a read
 * of the version row that started after it arrived, shared by the requests arriving together;
 * on PGlite the row is read again only after something was written.
 * The compressed forms are made once per version, when a client first asks for them.
 */
export function createFeedCache(db: Db) {
  let current: Entry | undefined
  let running: Promise<number> | null = null
  let queued: Promise<number> | null = null

  /** On PGlite: the version last read, and the database's count of writes just before. */
  let known: { writes: number; version: number } | undefined

  const startVersionRead = () => {
    const writes = pgliteWrites(db)
    const read: Promise<number> = readPodclubsVersion(db)
      .then((version) => {
        if (writes !== undefined && (!known || known.writes < writes)) known = { writes, version }
        return version
      })
      .finally(() => {
        if (running === read) running = null
      })
    running = read
    return read
  }

  /**
   * PGlite serves this process alone and counts its writes as they end (`countPgliteWrites`):
   * while the count stands where it stood before the last read of the version, that version is
   * still the database's, and a request needs no query. A statement on PGlite blocks the event
   * loop, so under load this is what keeps the feed fast there.
   */
  function currentVersion(): Promise<number> | number {
    const writes = pgliteWrites(db)
    if (writes !== undefined && known?.writes === writes) return known.version
    return freshVersion()
  }

  /**
   * The version as of a moment after this call: what every write acknowledged before it wrote.
   * Concurrent requests share reads: a read already running may have started before this
   * request arrived (and miss a write acknowledged just before it), so a request joins the read
   * queued behind it, which starts later. Under load that is about one tiny query per round
   * trip instead of one per request, and never a stale answer.
   */
  function freshVersion(): Promise<number> {
    if (queued) return queued
    if (!running) return startVersionRead()
    const next = running
      .then(
        () => {},
        () => {},
      )
      .then(() => {
        queued = null
        return startVersionRead()
      })
    queued = next
    return next
  }
  let building: { version: number; entry: Promise<Entry> } | undefined

  async function build(version: number): Promise<Entry> {
    // The version is read before the list: a change committed in between makes the list newer
    // than its key, never older, and the next request simply rebuilds.
    const list = await readUpcomingPodclubs(db)
    return { version, body: Buffer.from(JSON.stringify({ data: list })), encoded: {} }
  }

  async function entryFor(version: number): Promise<Entry> {
    if (current?.version === version) return current
    // Requests arriving together for a new version wait for one build instead of each reading.
    if (building?.version !== version) {
      const entry = build(version)
      building = { version, entry }
      entry
        .then((e) => {
          if (!current || current.version <= e.version) current = e
        })
        .catch(() => {})
        .finally(() => {
          if (building?.entry === entry) building = undefined
        })
    }
    return building.entry
  }

  return {
    /** The feed's JSON body in the best encoding the client accepts. */
    async read(
      acceptEncoding: string | undefined,
    ): Promise<{ body: Buffer; encoding: ContentEncoding }> {
      const version = await currentVersion()
      const entry = await entryFor(version)
      const encoding =
        entry.body.length < COMPRESS_THRESHOLD ? 'identity' : pickEncoding(acceptEncoding)
      if (encoding === 'identity') return { body: entry.body, encoding }
      const encoded = (entry.encoded[encoding] ??= encode(entry.body, encoding, {
        brotliQuality: 6,
      }))
      return { body: await encoded, encoding }
    },
  }
}

export type FeedCache = ReturnType<typeof createFeedCache>
