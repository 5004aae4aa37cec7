import { AsyncLocalStorage } from 'node:async_hooks'
import { inArray } from 'drizzle-orm'
import type { Db, Tx } from './client'
import {
  keepCachedInPgliteWrites,
  knownPgliteVersions,
  pgliteWrites,
  rememberPgliteVersions,
  type VersionValues,
  type WriteKeeper,
} from './pglite-writes'
import { cacheVersions } from './schema/index'

/**
 * The rows of `cache_versions`. The database raises each one itself, at the commit of every
 * change to what it stands for, whichever code made it (deferred triggers calling the one
 * function `bump_cache_version`: migrations 0012, 0015 and 0016), so a cache keyed by them can
 * never be forgotten stale:
 * - `podclubs`: podclubs, podcasts' names and pictures, members' names, addresses and deletions
 *   (what the feed, a podclub's page and cred show of them);
 * - `members`: accounts and sessions;
 * - kept per podclub or per member (`KeyedVersionName`, migration 0016): `seats:12`, the seats and
 *   seat waitlist of podclub 12, and `member_seats:7`, the seats member 7 holds. A truncate
 *   raises `seats` and `member_seats` themselves, which every read of one of their rows depends
 *   on too.
 */
export type CacheVersionName = 'podclubs' | 'members' | KeyedVersionName
/** The versions kept per key: a podclub's seats, a member's seats. */
export type KeyedVersionName = 'seats' | 'member_seats'

/** Versions by the name of their row ('podclubs', 'seats:12'). */
export type Versions = VersionValues

/** The row of one key of a version kept per key: `seats:12` is podclub 12's seats. */
export function keyedVersion(name: KeyedVersionName, key: number): string {
  return `${name}:${key}`
}

/** The named versions in one tiny read (0 for a row not raised yet). */
export async function readCacheVersions(
  db: Db | Tx,
  names: readonly string[],
): Promise<Map<string, number>> {
  const rows =
    names.length === 0
      ? []
      : await db
          .select({ name: cacheVersions.name, version: cacheVersions.version })
          .from(cacheVersions)
          .where(inArray(cacheVersions.name, [...names]))
  const versions = new Map<string, number>(names.map((name) => [name, 0]))
  for (const row of rows) versions.set(row.name, row.version)
  return versions
}

/** The versions consulted in the current async context, while something collects them. */
const consulted = new AsyncLocalStorage<Map<string, number>>()

/**
 * Runs `work` and tells every version consulted meanwhile, each at the oldest value it was
 * consulted at: what its answers stand on. Every cached read, and every read put together from
 * them, consults the versions through `cacheVersionsOf(db).current` before it answers, so what
 * `work` made from them is at least as new as these; once one of them is raised, it may be older.
 * A page kept for many viewers (plugins/page-cache.ts) stands on them.
 */
export async function collectVersions<T>(
  work: () => Promise<T>,
): Promise<{ value: T; versions: Versions }> {
  const seen = new Map<string, number>()
  const value = await consulted.run(seen, work)
  return { value, versions: seen }
}

function noteConsulted(seen: Map<string, number>, names: readonly string[], versions: Versions) {
  for (const name of names) {
    const version = versions.get(name) ?? 0
    const before = seen.get(name)
    if (before === undefined || version < before) seen.set(name, version)
  }
}

type VersionReader = {
  /**
   * The named versions as of a moment after this call: what every acknowledged write left. Those
   * alone: a version is noted as consulted (`collectVersions`) only when asked for, so a caller
   * that needs another asks again rather than finding it among versions read for someone else.
   */
  current(names: readonly string[]): Versions | Promise<Versions>
}

/** `versions` cut down to `names` (0 for a name not among them). */
function onlyNamed(names: readonly string[], versions: Versions): Versions {
  return new Map(names.map((name) => [name, versions.get(name) ?? 0]))
}

/** One reader per database handle, shared by every cache on it (not per module). */
const readers = new WeakMap<Db, VersionReader>()

/**
 * The versions of `db`, read as seldom as freshness allows:
 * - requests arriving together share reads: a read already running may have started before a
 *   request arrived (and miss a write acknowledged just before it), so the request joins the read
 *   queued behind it, which starts later and reads the names of every request that joined it.
 *   Under load that is one tiny query per round trip instead of one per request, and never a
 *   stale answer;
 * - on PGlite, which serves this process alone and counts its writes as they end
 *   (`countPgliteWrites`), the versions read or learned since the last write ended still hold
 *   and no query is needed. A write transaction learns the versions it leaves before it commits,
 *   so a read after it needs no query either, and none waits behind the next writes. A statement
 *   on PGlite blocks the event loop, so under load this is what keeps its reads fast.
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
  let running: Promise<Versions> | null = null
  let queued: { names: Set<string>; read: Promise<Versions> } | null = null

  const startRead = (names: ReadonlySet<string>) => {
    const writes = pgliteWrites(db)
    const read: Promise<Versions> = readCacheVersions(db, [...names])
      .then((versions) => {
        if (writes !== undefined) rememberPgliteVersions(db, writes, versions)
        return versions
      })
      .finally(() => {
        if (running === read) running = null
      })
    running = read
    return read
  }

  const fresh = (names: readonly string[]): Promise<Versions> => {
    if (queued) {
      for (const name of names) queued.names.add(name)
      return queued.read
    }
    if (!running) return startRead(new Set(names))
    const next: { names: Set<string>; read: Promise<Versions> } = {
      names: new Set(names),
      read: running
        .then(
          () => {},
          () => {},
        )
        .then(() => {
          queued = null
          return startRead(next.names)
        }),
    }
    queued = next
    return next.read
  }

  return {
    current(names) {
      const seen = consulted.getStore()
      const known = knownPgliteVersions(db, names)
      if (known) {
        const asked = onlyNamed(names, known)
        if (seen) noteConsulted(seen, names, asked)
        return asked
      }
      // A read shared with other requests reads their names too.
      const read = fresh(names).then((versions) => onlyNamed(names, versions))
      // Noted before the caller, which awaits it after this, goes on.
      if (seen) read.then((versions) => noteConsulted(seen, names, versions)).catch(() => {})
      return read
    },
  }
}

/**
 * What a cached read is and what it depends on: the versions it is kept by, and every table it
 * reads with the columns it uses there (a table listed depends on its rows coming and going too).
 * `db/cache-dependencies.test.ts` runs every cached read, asks the database which columns its
 * statements use, and fails when one is not listed here or when a change of one listed does not
 * raise one of its versions: a new column cannot go stale silently.
 */
export type CachedRead = {
  name: string
  versions: readonly CacheVersionName[]
  /**
   * A read kept per podclub or per member (its key, a number): the one row of this version for
   * its key (`seats:12`) stands for the tables listed, which the read may read only where the
   * column given is its key. A change there raises the row of that key alone, so the other
   * keys stay cached.
   */
  perKey?: { version: KeyedVersionName; columns: Readonly<Record<string, string>> }
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

function declare(db: Db, what: CachedRead) {
  const onDb = declared.get(db) ?? new Map<string, CachedRead>()
  onDb.set(what.name, what)
  declared.set(db, onDb)
}

/** The cached read running in the current async context, if any, and the keys it reads. */
export type CachedReadRunning = { name: string; keys: readonly unknown[] }
const reading = new AsyncLocalStorage<CachedReadRunning>()
/** The dependency test's view of what runs. */
export function cachedReadRunning(): CachedReadRunning | undefined {
  return reading.getStore()
}

/** The names of every version a read of `keys` depends on. */
export function versionNamesOf(what: CachedRead, keys: readonly unknown[]): string[] {
  const { perKey } = what
  if (!perKey) return [...what.versions]
  return [
    ...what.versions,
    perKey.version,
    ...keys.map((key) => keyedVersion(perKey.version, key as number)),
  ]
}

/** Whether `versions` holds every one of `names`. */
export function holdsAll(versions: Versions, names: readonly string[]): boolean {
  return names.every((name) => versions.has(name))
}

/** -1 when `a` is older than `b` (some row lower), 1 when newer or `b` is unknown, 0 when equal. */
function compareStamps(a: readonly number[], b: readonly number[] | undefined): -1 | 0 | 1 {
  if (!b) return 1
  if (a.some((v, i) => v > b[i]!)) return 1
  if (a.some((v, i) => v < b[i]!)) return -1
  return 0
}

/** The versions of `names`, in their order, as a stamp to compare. */
export function stampOf(names: readonly string[], versions: Versions): number[] {
  return names.map((name) => versions.get(name) ?? 0)
}

/** Whether two stamps are the same. */
export function sameStamp(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

type Entry<V> = { keyed: number; value: Promise<V> }

/** What `cachedManyByVersion` answers: a read of many keys at once, and of one. */
export type CachedMany<K, V> = {
  /**
   * The values of `keys`, read (together, for those not held) at versions that stand after this
   * call: `versions` when given and it names them all (it must have been read after the caller
   * began), or versions read now.
   */
  many(keys: readonly K[], versions?: Versions): Promise<Map<K, V>>
  /** One key's value, the same way. */
  get(key: K, versions?: Versions): Promise<V>
  /** The names of the versions a read of `keys` depends on. */
  names(keys: readonly K[]): string[]
}

/**
 * A read of many keys at once remembered while the versions it depends on stand, on either
 * engine: `readKeys(keys, on)` runs once per key and version however many requests ask together,
 * and a raised version forgets every key, or, for a version kept per key (`perKey`), that key
 * alone. Each call waits for versions read after it began (`cacheVersionsOf`), so once a write is
 * acknowledged no caller is answered from before it, in this process or any other on the same
 * database. `readKeys` must read with `on`, show only what the versions stand for, answer every
 * key it is given and keep each key's rows apart. What it answers is shared between callers: they
 * must not change it. A failed read is not kept.
 *
 * `keptInWrites`: on PGlite, a transaction that raises the version of a key held here reads that
 * key again before it commits (`keepCachedInPgliteWrites`, `on` being the transaction): the read
 * after an acknowledged seat costs no query, and none waits behind the next writes.
 */
export function cachedManyByVersion<K extends number, V>(
  db: Db,
  what: CachedRead,
  readKeys: (keys: readonly K[], on: Db | Tx) => Promise<ReadonlyMap<K, V>>,
  { maxKeys = 10_000, keptInWrites = false }: { maxKeys?: number; keptInWrites?: boolean } = {},
): CachedMany<K, V> {
  declare(db, what)
  const reader = cacheVersionsOf(db)
  const { perKey } = what
  const sharedNames = perKey ? [...what.versions, perKey.version] : [...what.versions]
  /** The version of `key`'s own row (0 for a read not kept per key). */
  const keyedOf = (key: K, versions: Versions) =>
    perKey ? (versions.get(keyedVersion(perKey.version, key)) ?? 0) : 0
  /** The versions every key depends on, as they stood when `entries` began. */
  let stamp: number[] | undefined
  let entries = new Map<K, Entry<V>>()

  const read = (keys: readonly K[], on: Db | Tx) =>
    reading.run({ name: what.name, keys }, () => readKeys(keys, on))

  /** One read for `keys`, each key's answer apart (a key the read did not answer fails). */
  const readApart = (keys: readonly K[]) => {
    const all = read(keys, db)
    return new Map(
      keys.map((key) => [
        key,
        all.then((values) => {
          if (!values.has(key)) throw new Error(`${what.name}: no value read for ${key}`)
          return values.get(key)!
        }),
      ]),
    )
  }

  const many = async (keys: readonly K[], given?: Versions): Promise<Map<K, V>> => {
    const names = versionNamesOf(what, keys)
    const versions = given && holdsAll(given, names) ? given : await reader.current(names)
    const now = stampOf(sharedNames, versions)
    const order = compareStamps(now, stamp)
    // Versions read before newer ones were: answer this caller, keep nothing.
    if (order < 0) return settle(readApart(keys))
    if (order > 0 || entries.size >= maxKeys) {
      stamp = now
      entries = new Map()
    }
    const answer = new Map<K, Promise<V>>()
    const missing: K[] = []
    const older: K[] = []
    for (const key of keys) {
      const entry = entries.get(key)
      const keyed = keyedOf(key, versions)
      if (entry?.keyed === keyed) answer.set(key, entry.value)
      else if (entry && entry.keyed > keyed) older.push(key)
      else missing.push(key)
    }
    if (missing.length > 0) {
      const kept = entries
      for (const [key, value] of readApart(missing)) {
        const entry = { keyed: keyedOf(key, versions), value }
        kept.set(key, entry)
        value.catch(() => {
          if (kept.get(key) === entry) kept.delete(key)
        })
        answer.set(key, value)
      }
    }
    if (older.length > 0) for (const [key, value] of readApart(older)) answer.set(key, value)
    return settle(answer)
  }

  const cached: CachedMany<K, V> = {
    many,
    async get(key, versions) {
      return (await many([key], versions)).get(key)!
    },
    names: (keys) => versionNamesOf(what, keys),
  }
  if (perKey && keptInWrites) {
    const keeper: WriteKeeper = async (raised, on) => {
      const held = [...entries.keys()].filter((key) =>
        raised.has(keyedVersion(perKey.version, key)),
      )
      if (held.length === 0) return undefined
      const kept = entries
      const values = await read(held, on())
      return (known) => {
        // Kept only where nothing else changed meanwhile, at the versions the commit left.
        if (entries !== kept || !holdsAll(known, sharedNames)) return
        if (compareStamps(stampOf(sharedNames, known), stamp) !== 0) return
        for (const key of held) {
          const entry = entries.get(key)
          const keyed = keyedOf(key, known)
          if (!values.has(key) || (entry && entry.keyed >= keyed)) continue
          entries.set(key, { keyed, value: Promise.resolve(values.get(key)!) })
        }
      }
    }
    // Registered weakly: it lives as long as this cache does.
    keepers.set(cached, keeper)
    keepCachedInPgliteWrites(db, keeper)
  }
  return cached
}

/** Each cache's write keeper, alive as long as the cache (see `keepCachedInPgliteWrites`). */
const keepers = new WeakMap<object, WriteKeeper>()

async function settle<K, V>(answer: ReadonlyMap<K, Promise<V>>): Promise<Map<K, V>> {
  const values = await Promise.all(answer.values())
  return new Map([...answer.keys()].map((key, i) => [key, values[i]!]))
}

/**
 * A read remembered while the versions it depends on stand, on either engine: `read(key)` runs
 * once per key and version however many requests ask together, and a raised version forgets every
 * key. Each call waits for versions read after it began (`cacheVersionsOf`), so once a write is
 * acknowledged no caller is answered from before it, in this process or any other on the same
 * database. `read` must show only what its versions stand for. What it answers is shared between
 * callers: they must not change it. A failed read is not kept. `versions`, when given and it
 * names them all, are used instead of reading them (they must have been read after the caller
 * began). A read kept per key (`perKey`) is made with `cachedManyByVersion`.
 */
export function cachedByVersion<K, V>(
  db: Db,
  what: CachedRead,
  readKey: (key: K) => Promise<V>,
  { maxKeys = 10_000 }: { maxKeys?: number } = {},
): (key: K, versions?: Versions) => Promise<V> {
  if (what.perKey) throw new Error(`${what.name} is kept per key: use cachedManyByVersion`)
  declare(db, what)
  const { versions: names } = what
  const read = (key: K) => reading.run({ name: what.name, keys: [key] }, () => readKey(key))
  const reader = cacheVersionsOf(db)
  let stamp: number[] | undefined
  let entries = new Map<K, Promise<V>>()
  return async (key, given) => {
    const now = stampOf(
      names,
      given && holdsAll(given, names) ? given : await reader.current(names),
    )
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
