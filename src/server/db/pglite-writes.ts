import { PGlite, type Transaction } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import type { Db } from './client'

/** Versions by the name of their row of `cache_versions` ('podclubs', 'seats:12'). */
export type VersionValues = ReadonlyMap<string, number>

/**
 * A cached read kept up to date by the writes themselves: called inside a transaction about to
 * commit, with the versions it raised and a handle on it, it reads again what it holds of them
 * and answers what to keep once the write is acknowledged (with the versions then known), or
 * nothing.
 */
export type WriteKeeper = (
  raised: VersionValues,
  on: () => Db,
) => Promise<((known: VersionValues) => void) | undefined>

type State = {
  /** Statements and transactions that may have written, counted as each ends. */
  count: number
  /** The versions known to stand once `at` writes had ended, by name (not every name). */
  versions?: Known
  /**
   * The names of the versions each of the last writes raised, by the count it ended at; null for
   * a write that did not learn them (a plain statement, a transaction that rolled back).
   */
  raisedBy: Map<number, ReadonlySet<string> | null>
  /** Held weakly: a cache that is gone (its app closed) is not read for any more. */
  keepers: Set<WeakRef<WriteKeeper>>
}

/**
 * What this process knows of each PGlite database: kept per database (the PGlite handle, which
 * every app instance on that database shares), never per module.
 */
const stateOf = new WeakMap<PGlite, State>()

/**
 * A statement that only reads: a plain SELECT, or SELECTs joined by UNION and the like, which
 * start with a parenthesis (our schema has no functions that write).
 */
const READ_ONLY = /^[\s(]*select\b/i

/**
 * Run by every transaction on PGlite once its work is done, before its COMMIT: the deferred
 * triggers fire now (they raise the versions), and the rows of `cache_versions` the transaction
 * raised (listed by `bump_cache_version`, migration 0016) are read, as the commit will leave them.
 */
const VERSIONS_LEFT = `set constraints all immediate;
select "name", "version" from "cache_versions"
where "name" = any(string_to_array(current_setting('podclub.versions_raised', true), ','))`

/**
 * Counts, on this PGlite handle, every statement that may write and every transaction, as each
 * ends (before its caller hears of it). PGlite runs one statement or transaction at a time, for
 * this process alone, so a count that has not moved since a moment means nothing was written
 * since then: a cache keyed by a version the database keeps can skip reading that version.
 *
 * A transaction also learns, before it commits and while it holds the one connection, the
 * versions its commit leaves, and the caches that hold what it changed read it again inside it
 * (`keepCachedInPgliteWrites`): once the write is acknowledged, the versions it left are known
 * without a query queued behind the next writes, and so is what it changed.
 */
export function countPgliteWrites(client: PGlite): void {
  if (stateOf.has(client)) return
  const state: State = { count: 0, raisedBy: new Map(), keepers: new Set() }
  stateOf.set(client, state)
  const query = client.query.bind(client)
  const exec = client.exec.bind(client)
  const transaction = client.transaction.bind(client)
  const ended = (mayWrite: boolean) => {
    if (mayWrite) wrote(state, null)
  }
  client.query = (async (text: string, ...rest: unknown[]) => {
    try {
      return await (query as (...args: unknown[]) => Promise<unknown>)(text, ...rest)
    } finally {
      ended(!READ_ONLY.test(text))
    }
  }) as typeof client.query
  client.exec = (async (...args: Parameters<typeof exec>) => {
    try {
      return await exec(...args)
    } finally {
      ended(true)
    }
  }) as typeof client.exec
  client.transaction = (async (callback: Parameters<typeof transaction>[0]) => {
    let left: Awaited<ReturnType<typeof versionsLeft>> | undefined
    let committed = false
    try {
      const result = await transaction(async (tx) => {
        const done = await callback(turnByTurn(tx))
        // A transaction its work rolled back has nothing to learn.
        if (!tx.closed) left = await versionsLeft(state, tx)
        return done
      })
      committed = true
      return result
    } finally {
      if (committed && left) learn(state, left)
      else ended(true)
    }
  }) as typeof client.transaction
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * `tx`, whose statements each let the event loop turn before they start; the transaction keeps
 * the connection all along. A statement runs in the process's own thread, and nothing in a
 * transaction waits on I/O: without a turn, a transaction, and every one queued behind it, would
 * hold the event loop until it ends (a seat change is some ten statements of 0.5 to 3 ms each),
 * and requests the caches answer at once would wait for all of them.
 */
function turnByTurn(tx: Transaction): Transaction {
  const { query, exec } = tx
  return Object.assign(tx, {
    query: (async (...args: Parameters<typeof query>) => {
      await yieldToRequests()
      return query(...args)
    }) as typeof query,
    exec: (async (...args: Parameters<typeof exec>) => {
      await yieldToRequests()
      return exec(...args)
    }) as typeof exec,
  })
}

/** Inside a transaction about to commit: the versions it leaves, and what the caches read again. */
async function versionsLeft(state: State, tx: Transaction) {
  const results = await tx.exec(VERSIONS_LEFT)
  const rows = (results[1]?.rows ?? []) as { name: string; version: number }[]
  const raised: VersionValues = new Map(rows.map((r) => [r.name, r.version]))
  // The writes that had ended before this one: none can end while it holds the connection.
  const at = state.count
  const keep: ((known: VersionValues) => void)[] = []
  if (raised.size > 0) {
    let onTx: Db | undefined
    const on = () => (onTx ??= drizzlePglite({ client: tx as unknown as PGlite }) as unknown as Db)
    for (const ref of state.keepers) {
      const keeper = ref.deref()
      if (!keeper) {
        state.keepers.delete(ref)
        continue
      }
      const kept = await keeper(raised, on)
      if (kept) keep.push(kept)
    }
  }
  return { at, raised, keep }
}

type Known = { at: number; values: VersionValues }

/** How many writes' raised versions are remembered (`raisedBy`). */
const RAISED_KEPT = 256

/** One more write has ended; what it raised, when known. */
function wrote(state: State, raised: ReadonlySet<string> | null) {
  state.count += 1
  state.raisedBy.set(state.count, raised)
  state.raisedBy.delete(state.count - RAISED_KEPT)
}

/** Every version raised by the writes that ended after `from` and up to `to`; null if unknown. */
function raisedBetween(state: State, from: number, to: number): Set<string> | null {
  const all = new Set<string>()
  for (let at = from + 1; at <= to; at++) {
    const raised = state.raisedBy.get(at)
    if (!raised) return null
    for (const name of raised) all.add(name)
  }
  return all
}

/**
 * What is known after adding `found` to what was known: the newer of the two, with the names of
 * the older one that no write in between raised (they stood all along). A version read that a
 * write overtook in the queue thus still teaches the names it read, where it would otherwise
 * always come too late while writes keep coming.
 */
function merged(state: State, known: Known | undefined, found: Known): Known {
  if (!known) return found
  const [older, newer] = known.at <= found.at ? [known, found] : [found, known]
  const raised = raisedBetween(state, older.at, newer.at)
  if (!raised) return newer
  const values = new Map(newer.values)
  for (const [name, version] of older.values) {
    if (!values.has(name) && !raised.has(name)) values.set(name, version)
  }
  return { at: newer.at, values }
}

/**
 * After the commit, before the caller hears of it: the versions the transaction raised are the
 * versions now, and the others stand as known before it, unless another write ended meanwhile
 * (then nothing is learned, and the next cached read asks the database).
 */
function learn(state: State, left: Awaited<ReturnType<typeof versionsLeft>>) {
  if (state.count !== left.at) return wrote(state, null)
  wrote(state, new Set(left.raised.keys()))
  state.versions = merged(state, state.versions, { at: state.count, values: left.raised })
  for (const kept of left.keep) kept(state.versions.values)
}

function stateOfDb(db: Db): State | undefined {
  const client = (db as { $client?: unknown }).$client
  return client instanceof PGlite ? stateOf.get(client) : undefined
}

/**
 * On PGlite, the count of writes of `countPgliteWrites` (it only ever grows); undefined on a
 * PostgreSQL server, where other processes write too and only the database knows.
 */
export function pgliteWrites(db: Db): number | undefined {
  return stateOfDb(db)?.count
}

/**
 * On PGlite, the versions that stand now, when every one of `names` is known (read or learned
 * since the last write ended); undefined otherwise, and always on PostgreSQL.
 */
export function knownPgliteVersions(db: Db, names: readonly string[]): VersionValues | undefined {
  const state = stateOfDb(db)
  const known = state?.versions
  if (!known || known.at !== state.count) return undefined
  return names.every((name) => known.values.has(name)) ? known.values : undefined
}

/**
 * On PGlite, versions read by a query that began once `at` writes had ended (and ran after them,
 * and maybe after later ones).
 */
export function rememberPgliteVersions(db: Db, at: number, values: VersionValues): void {
  const state = stateOfDb(db)
  if (state) state.versions = merged(state, state.versions, { at, values })
}

/**
 * On PGlite, `keeper` is called inside every transaction that raised a version, before it
 * commits (see `WriteKeeper`), for as long as the caller holds it. Nothing on PostgreSQL, where a
 * transaction cannot know what other processes commit around it.
 */
export function keepCachedInPgliteWrites(db: Db, keeper: WriteKeeper): boolean {
  const state = stateOfDb(db)
  state?.keepers.add(new WeakRef(keeper))
  return state !== undefined
}
