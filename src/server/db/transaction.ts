import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db, Tx } from './client'

type OpenTransaction = { mailEnqueued: boolean; jobEnqueued: boolean }
const openTransaction = new AsyncLocalStorage<OpenTransaction>()

/**
 * The one way services write: runs `work` in a transaction and, once it has committed, wakes the
 * outbox if the work enqueued mail (so the mail of a rolled-back change is never sent, and the
 * mail of a committed one goes out at once), and the job runner if it queued a job.
 */
export async function transaction<T>(
  deps: { db: Db; wakeOutbox: () => void; wakeJobs?: () => void },
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  const state: OpenTransaction = { mailEnqueued: false, jobEnqueued: false }
  const result = await deps.db.transaction((tx) => openTransaction.run(state, () => work(tx)))
  if (state.mailEnqueued) deps.wakeOutbox()
  if (state.jobEnqueued) deps.wakeJobs?.()
  return result
}

/** Called by `enqueueJob`: the transaction it runs in has a job to wake the runner for. */
export function noteJobEnqueued(): void {
  const state = openTransaction.getStore()
  if (state) state.jobEnqueued = true
}

/** Called by `enqueueMail`: the transaction it runs in has mail to wake the outbox for. */
export function noteMailEnqueued(): void {
  const state = openTransaction.getStore()
  if (state) state.mailEnqueued = true
}

const QUERY_METHODS = new Set<PropertyKey>([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'transaction',
  'with',
  '$count',
])

/**
 * For tests: a `db` that throws when used while a `transaction()` is open in the same async
 * flow. Such a query runs outside the transaction (on PGlite, with its single connection, it
 * waits for the transaction forever); inside one, use its `tx`.
 */
export function guardPlainDb(db: Db): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver)
      if (typeof value !== 'function' || !QUERY_METHODS.has(prop)) return value
      return (...args: unknown[]) => {
        if (openTransaction.getStore()) {
          throw new Error(
            `db.${String(prop)}() was called inside an open transaction: use its tx handle`,
          )
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}
