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
