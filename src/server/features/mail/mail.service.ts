import { and, desc, eq, inArray, isNotNull, lt, max, ne, notInArray, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { outboxAttempts, outboxMessages, type MailAttachment } from '../../db/schema/index'
import { noteMailEnqueued } from '../../db/transaction'

export type OutgoingMail = {
  to: string
  subject: string
  text: string
  html?: string
  /** What the message is about (`password-reset`, `reminder-1d`...), for logs and queries. */
  kind: string
  /**
   * At most one message per key, ever: a second enqueue with the same key is skipped by the
   * database's unique index (`reminder-1d:podclub-12:user-7`, `blast-3:user-7`).
   */
  dedupeKey?: string
  /** Extra headers, such as List-Unsubscribe on a blast. */
  headers?: Record<string, string>
  /** Small text files sent along, such as a podclub's `.ics`. */
  attachments?: MailAttachment[]
}

/**
 * Due at once whatever the clocks say. The worker compares `next_attempt_at` with its own
 * (injectable) clock, and the database's now() may be ahead of it, in tests with a fixed clock
 * or with a bit of skew between hosts.
 */
const DUE_NOW = new Date(0)

/**
 * Puts mail in the outbox; the worker delivers it. Takes the transaction of the change that
 * causes the mail (see `transaction()`): if it rolls back, the mail is never sent, and once it
 * commits, the mail survives a crash and the outbox is woken. Returns the ids of the new outbox
 * rows, in input order, leaving out messages whose dedupe key was already used (earlier, by a
 * transaction that commits meanwhile, or earlier in the same list).
 */
export async function enqueueMail(tx: Tx, mail: OutgoingMail | OutgoingMail[]): Promise<number[]> {
  const list = Array.isArray(mail) ? mail : [mail]
  if (list.length === 0) return []
  const rows = await tx
    .insert(outboxMessages)
    .values(
      list.map((m) => ({
        toAddress: m.to,
        subject: m.subject,
        textBody: m.text,
        htmlBody: m.html ?? null,
        kind: m.kind,
        dedupeKey: m.dedupeKey ?? null,
        headers: m.headers ?? null,
        attachments: m.attachments?.length ? m.attachments : null,
        nextAttemptAt: DUE_NOW,
      })),
    )
    .onConflictDoNothing({ target: outboxMessages.dedupeKey })
    .returning({ id: outboxMessages.id })
  // Only new rows need the outbox woken: a message skipped for its dedupe key was queued before.
  if (rows.length > 0) noteMailEnqueued()
  return rows.map((r) => r.id)
}

/**
 * An address that is no longer anyone's (its member deleted their account): mail still waiting
 * for it is dropped (it was for the account, and may carry a link that logs in), and the record
 * of what was sent keeps its subject and outcome with `replacement` for the address. A message
 * being sent at this moment goes out, and is recorded without the address too.
 */
export async function forgetRecipient(tx: Tx, address: string, replacement: string) {
  const toThem = sql`lower(${outboxMessages.toAddress}) = lower(${address})`
  // Pending first: a message a worker claims meanwhile is 'sending' by the update below.
  await tx.delete(outboxMessages).where(and(toThem, eq(outboxMessages.status, 'pending')))
  await tx.update(outboxMessages).set({ toAddress: replacement }).where(toThem)
}

/**
 * Mail whose subject names someone who has left (an invite says who sent it): what still waits
 * to go out is dropped, and the record of what went shows `subject` instead.
 */
export async function rewordSentMail(
  tx: Tx,
  sent: { kind: string; subject: string },
  subject: string,
) {
  const match = and(eq(outboxMessages.kind, sent.kind), eq(outboxMessages.subject, sent.subject))
  await tx.delete(outboxMessages).where(and(match, eq(outboxMessages.status, 'pending')))
  await tx.update(outboxMessages).set({ subject }).where(match)
}

export type EmailActivity = {
  /** When the latest delivery attempt happened (ISO 8601). */
  date_created: string
  email: string
  subject: string
  /** Delivered. False for a message that gave up, or whose latest attempt failed. */
  success: boolean
}

/** How many messages the control panel's e-mail activity lists. */
export const EMAIL_ACTIVITY_LIMIT = 50

/**
 * The control panel's "Recent email activity": one row per message that has been tried at
 * least once, newest attempt first. A message still waiting for a retry shows as not (yet)
 * successful; messages never tried yet are left out, as there is nothing to report on them.
 */
export async function listEmailActivity(
  db: Db,
  limit = EMAIL_ACTIVITY_LIMIT,
): Promise<EmailActivity[]> {
  const lastAttempt = db
    .select({
      messageId: outboxAttempts.messageId,
      attemptedAt: sql<Date>`max(${outboxAttempts.attemptedAt})`
        .mapWith(outboxAttempts.attemptedAt)
        .as('attempted_at'),
    })
    .from(outboxAttempts)
    .groupBy(outboxAttempts.messageId)
    .as('last_attempt')

  const rows = await db
    .select({
      id: outboxMessages.id,
      email: outboxMessages.toAddress,
      subject: outboxMessages.subject,
      status: outboxMessages.status,
      attemptedAt: lastAttempt.attemptedAt,
    })
    .from(outboxMessages)
    .innerJoin(lastAttempt, eq(lastAttempt.messageId, outboxMessages.id))
    .orderBy(desc(lastAttempt.attemptedAt), desc(outboxMessages.id))
    .limit(limit)

  return rows.map((r) => ({
    date_created: r.attemptedAt.toISOString(),
    email: r.email,
    subject: r.subject,
    success: r.status === 'delivered',
  }))
}

/** How long delivered and failed messages are kept, for the e-mail activity and for support. */
export const OUTBOX_RETENTION_MS = 30 * 86_400_000

const DONE = ['delivered', 'failed'] as const

/**
 * Deletes delivered and failed messages (their attempts go with them) whose last attempt is older
 * than `retentionMs`, except those the e-mail activity still lists, so that a quiet club's panel
 * doesn't empty out. Pending and sending messages are never deleted, however old. Also clears any
 * bodies a done message still holds (rows finished before bodies were cleared on delivery).
 * Safe to run from every process at once.
 */
export async function pruneOutbox(
  db: Db,
  opts: { now: Date; retentionMs?: number; keepRecent?: number },
): Promise<{ deleted: number; bodiesCleared: number }> {
  const cutoff = new Date(opts.now.getTime() - (opts.retentionMs ?? OUTBOX_RETENTION_MS))
  // Ordered as listEmailActivity orders them.
  const shown = db
    .select({ id: outboxAttempts.messageId })
    .from(outboxAttempts)
    .groupBy(outboxAttempts.messageId)
    .orderBy(desc(max(outboxAttempts.attemptedAt)), desc(outboxAttempts.messageId))
    .limit(opts.keepRecent ?? EMAIL_ACTIVITY_LIMIT)
  const lastActivity = sql`coalesce(
    (select max(${outboxAttempts.attemptedAt}) from ${outboxAttempts}
      where ${outboxAttempts.messageId} = ${outboxMessages.id}),
    ${outboxMessages.deliveredAt},
    ${outboxMessages.createdAt})`

  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(outboxMessages)
      .where(
        and(
          inArray(outboxMessages.status, DONE),
          lt(lastActivity, sql`${cutoff.toISOString()}::timestamptz`),
          notInArray(outboxMessages.id, shown),
        ),
      )
      .returning({ id: outboxMessages.id })
    const cleared = await tx
      .update(outboxMessages)
      .set({ textBody: '', htmlBody: null, attachments: null })
      .where(
        and(
          inArray(outboxMessages.status, DONE),
          or(
            ne(outboxMessages.textBody, ''),
            isNotNull(outboxMessages.htmlBody),
            isNotNull(outboxMessages.attachments),
          ),
        ),
      )
      .returning({ id: outboxMessages.id })
    return { deleted: deleted.length, bodiesCleared: cleared.length }
  })
}
