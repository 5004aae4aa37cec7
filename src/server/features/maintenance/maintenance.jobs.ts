import { and, isNotNull, lt, or } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { IDEMPOTENCY_KEY_TTL_MS } from '../../db/idempotency'
import { idempotencyKeys, passwordResetTokens, rateLimits, sessions } from '../../db/schema/index'
import type { Clock } from '../../lib/clock'
import { pruneOutbox } from '../mail/mail.service'

const DAY_MS = 86_400_000

/**
 * Deletes what has run out: sessions past their expiry, rate-limit counters past theirs, reset
 * tokens that expired or were used more than a day ago, idempotency keys older than a day, and
 * delivered or failed e-mails past the outbox's retention (see `pruneOutbox`). Safe to run from
 * every process.
 */
export const pruneExpiredJob = {
  id: 'prune-expired',
  intervalMs: 60 * 60 * 1000,
  async run(deps: { db: Db; clock: Clock }) {
    const now = deps.clock.now()
    const dayAgo = new Date(now.getTime() - DAY_MS)
    const deleted = await deps.db.transaction(async (tx) => {
      const s = await tx
        .delete(sessions)
        .where(lt(sessions.expiresAt, now))
        .returning({ id: sessions.idHash })
      const r = await tx
        .delete(rateLimits)
        .where(and(isNotNull(rateLimits.expire), lt(rateLimits.expire, now)))
        .returning({ key: rateLimits.key })
      const t = await tx
        .delete(passwordResetTokens)
        .where(
          or(lt(passwordResetTokens.expiresAt, dayAgo), lt(passwordResetTokens.usedAt, dayAgo)),
        )
        .returning({ id: passwordResetTokens.id })
      const k = await tx
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS)))
        .returning({ key: idempotencyKeys.key })
      return {
        sessions: s.length,
        rateLimits: r.length,
        resetTokens: t.length,
        idempotencyKeys: k.length,
      }
    })
    const outbox = await pruneOutbox(deps.db, { now })
    return { ...deleted, outboxMessages: outbox.deleted, outboxBodiesCleared: outbox.bodiesCleared }
  },
}
