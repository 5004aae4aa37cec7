import { and, eq, lt } from 'drizzle-orm'
import type { Tx } from './client'
import { idempotencyKeys } from './schema/index'

/** How long a key's answer is kept and repeated; the prune job deletes older ones. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000

/** Who sent a write, which call and target it was (`register:12`), and the key, if any. */
export type IdempotentCall = { userId: number; scope: string; key: string | undefined; now: Date }

/**
 * Runs `work` once per key, in the caller's transaction: the first request with a key claims it
 * and stores its answer with the write; a retry with the same key gets that answer and `work` does
 * not run. A retry racing the first waits on the key until the first commits (or rolls back, and
 * then it does the work itself), whatever the process. A refused write (an AppError) rolls back
 * with its key, so its retry is tried afresh. Without a key, `work` just runs.
 */
export async function runOnce<T>(tx: Tx, call: IdempotentCall, work: () => Promise<T>): Promise<T> {
  const { userId, scope, key, now } = call
  if (!key) return work()
  const expired = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)
  const thisKey = and(
    eq(idempotencyKeys.userId, userId),
    eq(idempotencyKeys.scope, scope),
    eq(idempotencyKeys.key, key),
  )
  // A key older than a day that the prune job has not deleted yet counts as new.
  const [claimed] = await tx
    .insert(idempotencyKeys)
    .values({ userId, scope, key, createdAt: now })
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.scope, idempotencyKeys.key],
      set: { response: null, createdAt: now },
      setWhere: lt(idempotencyKeys.createdAt, expired),
    })
    .returning({ key: idempotencyKeys.key })
  if (!claimed) {
    const [first] = await tx
      .select({ response: idempotencyKeys.response })
      .from(idempotencyKeys)
      .where(thisKey)
    return first!.response as T
  }
  const result = await work()
  await tx.update(idempotencyKeys).set({ response: result }).where(thisKey)
  return result
}
