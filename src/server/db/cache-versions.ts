import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db } from './client'
import { pgliteWrites } from './pglite-writes'
import { cacheVersions } from './schema/index'

/**
 * The rows of `cache_versions`. The database raises each one itself, at the commit of every
 * change to what it stands for, whichever code made it (deferred triggers calling the one
 * function `bump_cache_version`: migrations 0012 and 0015), so a cache keyed by them can never be
 * forgotten stale:
 * - `podclubs`: podclubs, podcasts' names and pictures, members' names, addresses and deletions
 *   (what the feed, a podclub's page and cred show of them);
 * - `seats`: seats and seat waitlists (migration 0015), apart so a seat leaves the texts be;
 * - `members`: accounts and sessions.
 */
export type CacheVersionName = 'podclubs' | 'seats' | 'members'
export type CacheVersions = Readonly<Record<CacheVersionName, number>>

/** All versions in one tiny read (0 for a row not raised yet). */
export async function readCacheVersions(db: Db): Promise<CacheVersions> {
  const rows = await db
    .select({ name: cacheVersions.name, version: cacheVersions.version })
    .from(cacheVersions)
  const of = (name: CacheVersionName) => rows.find((r) => r.name === name)?.version ?? 0
  return { podclubs: of('podclubs'), seats: of('seats'), members: of('members') }
}

type VersionReader = {
  /** The versions as of a moment after this call: what every acknowledged write left. */
  current(): CacheVersions | Promise<CacheVersions>
}

/** One reader per database handle, shared by every cache on it (not per module). */
const readers = new WeakMap<Db, VersionReader>()

/**
 * The versions of `db`, read as seldom as freshness allows:
 * - requests arriving together share reads: a read already running may have started before a
 *   request arrived (and miss a write acknowledged just before it), so the request joins the read
 *   queued behind it, which starts later. Under load that is one tiny query per round trip
 *   instead of one per request, and never a stale answer;
 * - on PGlite, which serves this process alone and counts its writes as they end
 *   (`countPgliteWrites`), while the count stands where it stood before the last read, that read
 *   still holds and no query is needed. A statement on PGlite blocks the event loop, so under
 *   load this is what keeps its reads fast.
 */
export function cacheVersionsOf(db: Db): VersionReader {
  let reader = readers.get(db)
  if (!reader) {
    reader = createVersionReader(db)
    readers.set(db, reader)
  }
  return reader
}

function createVersionReader(db: Db): VersionReader {
  let running: Promise<CacheVersions> | null = null
  let queued: Promise<CacheVersions> | null = null
  /** On PGlite: the versions last read, and the database's count of writes just before. */
  let known: { writes: number; versions: CacheVersions } | undefined

  const startRead = () => {
    const writes = pgliteWrites(db)
    const read: Promise<CacheVersions> = readCacheVersions(db)
      .then((versions) => {
        if (writes !== undefined && (!known || known.writes < writes)) known = { writes, versions }
        return versions
      })
      .finally(() => {
        if (running === read) running = null
      })
    running = read
    return read
  }

  const fresh = (): Promise<CacheVersions> => {
    if (queued) return queued
    if (!running) return startRead()
    const next = running
      .then(
        () => {},
        () => {},
      )
      .then(() => {
        queued = null
        return startRead()
      })
    queued = next
    return next
  }

  return {
    current() {
      const writes = pgliteWrites(db)
      if (writes !== undefined && known?.writes === writes) return known.versions
      return fresh()
    },
  }
}

/**
 * What a cached read is and what it depends on: the versions it is kept by, and every table it
 * reads with the columns it uses there (a table listed depends on its rows coming and going too).
 * `db/cache-dependencies.test.ts` runs every cached read, asks the database which columns its
 * statements use, and fails when one is not listed here or when a change of one listed does not
 * raise one of `versions`: a new column cannot go stale silently.
 */
export type CachedRead = {
  name: string
  versions: readonly CacheVersionName[]
  dependsOn: Readonly<Record<string, readonly string[]>>
  /**
   * Tables of `dependsOn` whose new rows the read can only see once a row it reads refers to
   * them (a podcast, a member), a change that raises the version itself.
   */
  newRowsSeenThrough?: Readonly<Record<string, string>>
}

/** Every cached read made on each database handle, by name (what the dependency test checks). */
const declared = new WeakMap<Db, Map<string, CachedRead>>()
export function declaredCachedReads(db: Db): CachedRead[] {
  return [...(declared.get(db)?.values() ?? [])]
}

/** The cached read running in the current async context, if any (the dependency test's view). */
const reading = new AsyncLocalStorage<string>()
export function cachedReadRunning(): string | undefined {
  return reading.getStore()
}

/** -1 when `a` is older than `b` (some row lower), 1 when newer or `b` is unknown, 0 when equal. */
function compareStamps(a: readonly number[], b: readonly number[] | undefined): -1 | 0 | 1 {
  if (!b) return 1
  if (a.some((v, i) => v > b[i]!)) return 1
  if (a.some((v, i) => v < b[i]!)) return -1
  return 0
}

/**
 * A read remembered while the versions it depends on stand, on either engine: `read(key)` runs
 * once per key and version however many requests ask together, and a raised version forgets every
 * key. Each call waits for versions read after it began (`cacheVersionsOf`), so once a write is
 * acknowledged no caller is answered from before it, in this process or any other on the same
 * database. `read` must show only what `versions` stand for. What it answers is shared between
 * callers: they must not change it. A failed read is not kept.
 */
export function cachedByVersion<K, V>(
  db: Db,
  what: CachedRead,
  readKey: (key: K) => Promise<V>,
  { maxKeys = 10_000 }: { maxKeys?: number } = {},
): (key: K) => Promise<V> {
  const onDb = declared.get(db) ?? new Map<string, CachedRead>()
  onDb.set(what.name, what)
  declared.set(db, onDb)
  const { versions } = what
  const read = (key: K) => reading.run(what.name, () => readKey(key))
  const reader = cacheVersionsOf(db)
  let stamp: number[] | undefined
  let entries = new Map<K, Promise<V>>()
  return async (key) => {
    const current = await reader.current()
    const now = versions.map((name) => current[name])
    const order = compareStamps(now, stamp)
    // Versions read before newer ones were: answer this caller, keep nothing.
    if (order < 0) return read(key)
    if (order > 0 || entries.size >= maxKeys) {
      stamp = now
      entries = new Map()
    }
    let entry = entries.get(key)
    if (!entry) {
      const reading = read(key)
      const kept = entries
      kept.set(key, reading)
      reading.catch(() => {
        if (kept.get(key) === reading) kept.delete(key)
      })
      entry = reading
    }
    return entry
  }
}
