import { PGlite } from '@electric-sql/pglite'
import type { Db } from './client'

/**
 * How many times something may have written to each PGlite database: kept per database (the
 * PGlite handle, which every app instance on that database shares), never per module.
 */
const writesOf = new WeakMap<PGlite, { count: number }>()

/** A statement that only reads: a plain SELECT (our schema has no functions that write). */
const READ_ONLY = /^\s*select\b/i

/**
 * Counts, on this PGlite handle, every statement that may write and every transaction, as each
 * ends (before its caller hears of it). PGlite runs one statement or transaction at a time, for
 * this process alone, so a count that has not moved since a moment means nothing was written
 * since then: a cache keyed by a version the database keeps can skip reading that version.
 */
export function countPgliteWrites(client: PGlite): void {
  if (writesOf.has(client)) return
  const state = { count: 0 }
  writesOf.set(client, state)
  const query = client.query.bind(client)
  const exec = client.exec.bind(client)
  const transaction = client.transaction.bind(client)
  const ended = (mayWrite: boolean) => {
    if (mayWrite) state.count += 1
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
    try {
      return await transaction(callback)
    } finally {
      ended(true)
    }
  }) as typeof client.transaction
}

/**
 * On PGlite, the count of writes of `countPgliteWrites` (it only ever grows); undefined on a
 * PostgreSQL server, where other processes write too and only the database knows.
 */
export function pgliteWrites(db: Db): number | undefined {
  const client = (db as { $client?: unknown }).$client
  return client instanceof PGlite ? writesOf.get(client)?.count : undefined
}

/**
 * A read remembered until the database next writes: on PGlite, which serves this process alone
 * and counts its writes, `read(key)` answers from memory while nothing has been written since it
 * was read (a read overlapping a write is not kept), so a burst of reads costs one query each
 * key; on PostgreSQL, which other processes write to, every call reads. What it answers is
 * shared between callers: they must not change it. A failed read is not kept.
 */
export function readUntilWrite<K, V>(
  db: Db,
  read: (key: K) => Promise<V>,
  { maxKeys = 10_000 }: { maxKeys?: number } = {},
): (key: K) => Promise<V> {
  const remembered = new Map<K, V>()
  let rememberedAt: number | undefined
  return async (key) => {
    const writes = pgliteWrites(db)
    if (writes === undefined) return read(key)
    if (writes !== rememberedAt || remembered.size >= maxKeys) {
      remembered.clear()
      rememberedAt = writes
    }
    if (remembered.has(key)) return remembered.get(key) as V
    const value = await read(key)
    if (pgliteWrites(db) === writes && rememberedAt === writes) remembered.set(key, value)
    return value
  }
}
