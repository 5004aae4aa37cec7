import { createHash } from 'node:crypto'
import { and, asc, eq, getTableColumns, inArray, lt, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { outboxAttempts, outboxMessages } from '../../db/schema/index'
import type { Clock } from '../../lib/clock'
import type { MailTransport } from './mail.transport'

type Logger = {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

export type OutboxWorkerDeps = {
  db: Db
  transport: MailTransport
  clock: Clock
  /** The From header, `podclub <noreply@example.org>`; its domain also names the Message-IDs. */
  from: string
  log: Logger
  /** Messages claimed per run. Default 10. */
  batchSize?: number
  /**
   * Attempts before a message is marked failed. Default 8, about an hour of retries. An attempt
   * counts when the message is claimed, so a send whose outcome never got recorded (the process
   * died, or the database refused the update) counts too.
   */
  maxAttempts?: number
  /**
   * How long a claim holds before another process may take the message over, on the assumption
   * that the claimer died. Renewed before each send, so it only has to outlast one send (the
   * SMTP transport gives up within SMTP_SEND_DEADLINE_MS, 15 s). Default 5 minutes.
   */
  lockMs?: number
}

export type OutboxRunResult = { delivered: number; retried: number; failed: number }

export type OutboxWorker = {
  /** Messages claimed per run: a run that handled this many suggests more are due. */
  readonly batchSize: number
  /**
   * Claims one batch of due messages and tries each once. Runs of one worker never overlap. The
   * scheduler runs it (src/server/background.ts), and at once when mail was committed.
   */
  runOnce(): Promise<OutboxRunResult>
  /**
   * Resolves once the message being sent is settled. The rest of the batch
   * is handed back unsent, for the next process. A stopped worker sends nothing more.
   */
  stop(): Promise<void>
}

const BACKOFF_BASE_MS = 30_000
const BACKOFF_CAP_MS = 60 * 60_000

/** Wait before the next try, after `attempts` failed ones: 30 s, 1 min, 2 min... at most 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS)
}

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { db, transport, clock, from, log } = deps
  const batchSize = deps.batchSize ?? 10
  const maxAttempts = deps.maxAttempts ?? 8
  const lockMs = deps.lockMs ?? 5 * 60_000
  const messageIdDomain = domainOf(from)

  let stopped = false
  // Every run chains onto the previous one: this is what "never overlapping" rests on, and what
  // stop() waits for.
  let tail: Promise<unknown> = Promise.resolve()

  /** A claimed row; `attempts` already counts the attempt this claim is for. */
  type Claimed = typeof outboxMessages.$inferSelect

  async function claimBatch(now: Date): Promise<Claimed[]> {
    const due = db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(
        or(
          and(eq(outboxMessages.status, 'pending'), lte(outboxMessages.nextAttemptAt, now)),
          // A claim whose lock ran out belongs to a process that died mid-send: take it over.
          and(eq(outboxMessages.status, 'sending'), lt(outboxMessages.lockedUntil, now)),
        ),
      )
      .orderBy(asc(outboxMessages.id))
      .limit(batchSize)
      // Other processes skip what we lock here instead of waiting, then claiming it again.
      .for('update', { skipLocked: true })

    // The attempt is counted here, not once the send returns: a message whose outcome is never
    // recorded (a crash mid-send, a database error on the way back) still uses up its attempts,
    // instead of being taken over and sent again forever.
    const rows = await db
      .update(outboxMessages)
      .set({
        status: 'sending',
        lockedUntil: new Date(now.getTime() + lockMs),
        attempts: sql`${outboxMessages.attempts} + 1`,
      })
      .where(inArray(outboxMessages.id, due))
      .returning(getTableColumns(outboxMessages))
    return rows.sort((a, b) => a.id - b.id)
  }

  /**
   * Our claim is identified by the exact `locked_until` we wrote: if another process took the
   * message over after our lock ran out, it wrote its own, and our updates no longer match.
   */
  function ours(id: number, lockedUntil: Date) {
    return and(
      eq(outboxMessages.id, id),
      eq(outboxMessages.status, 'sending'),
      eq(outboxMessages.lockedUntil, lockedUntil),
    )
  }

  /** Extends our lock just before sending; undefined when the message is no longer ours. */
  async function renewLock(msg: Claimed, lockedUntil: Date): Promise<Date | undefined> {
    const renewed = new Date(clock.now().getTime() + lockMs)
    const rows = await db
      .update(outboxMessages)
      .set({ lockedUntil: renewed })
      .where(ours(msg.id, lockedUntil))
      .returning({ id: outboxMessages.id })
    return rows.length > 0 ? renewed : undefined
  }

  /** Hands unsent messages back, with the attempt their claim counted taken back too. */
  async function release(msgs: Claimed[], lockedUntil: Date): Promise<void> {
    for (const msg of msgs) {
      await db
        .update(outboxMessages)
        .set({ status: 'pending', lockedUntil: null, attempts: msg.attempts - 1 })
        .where(ours(msg.id, lockedUntil))
    }
  }

  async function recordSuccess(msg: Claimed, lockedUntil: Date): Promise<boolean> {
    const now = clock.now()
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(outboxMessages)
        .set({
          status: 'delivered',
          deliveredAt: now,
          lockedUntil: null,
          lastError: null,
          ...CLEARED_BODIES,
        })
        .where(ours(msg.id, lockedUntil))
        .returning({ id: outboxMessages.id })
      if (rows.length === 0) return false
      await tx.insert(outboxAttempts).values({ messageId: msg.id, success: true, attemptedAt: now })
      return true
    })
  }

  async function recordFailure(
    msg: Claimed,
    lockedUntil: Date,
    error: string,
  ): Promise<'retried' | 'failed' | 'lost'> {
    const now = clock.now()
    // Counted when the message was claimed: this failure is attempt number `msg.attempts`.
    const givesUp = msg.attempts >= maxAttempts
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(outboxMessages)
        .set({
          status: givesUp ? 'failed' : 'pending',
          lastError: error,
          lockedUntil: null,
          ...(givesUp
            ? CLEARED_BODIES
            : { nextAttemptAt: new Date(now.getTime() + retryDelayMs(msg.attempts)) }),
        })
        .where(ours(msg.id, lockedUntil))
        .returning({ id: outboxMessages.id })
      if (rows.length === 0) return 'lost' as const
      await tx
        .insert(outboxAttempts)
        .values({ messageId: msg.id, success: false, error, attemptedAt: now })
      return givesUp ? ('failed' as const) : ('retried' as const)
    })
  }

  /**
   * For a message claimed once more after all its attempts were used up, each of them lost
   * before its outcome was recorded: it is not sent again. The attempt this claim counted is
   * taken back (nothing was tried), and the give-up is recorded as a failed attempt so that the
   * control panel's e-mail activity shows it.
   */
  async function giveUp(msg: Claimed, lockedUntil: Date): Promise<boolean> {
    const now = clock.now()
    const error = `gave up after ${msg.attempts - 1} attempts without a recorded outcome`
    return db.transaction(async (tx) => {
      const rows = await tx
        .update(outboxMessages)
        .set({
          status: 'failed',
          attempts: msg.attempts - 1,
          lastError: error,
          lockedUntil: null,
          ...CLEARED_BODIES,
        })
        .where(ours(msg.id, lockedUntil))
        .returning({ id: outboxMessages.id })
      if (rows.length === 0) return false
      await tx
        .insert(outboxAttempts)
        .values({ messageId: msg.id, success: false, error, attemptedAt: now })
      return true
    })
  }

  /** Tries one claimed message once and records the outcome in `result`. */
  async function processMessage(msg: Claimed, result: OutboxRunResult): Promise<void> {
    const claimedUntil = msg.lockedUntil!
    if (msg.attempts > maxAttempts) {
      if (await giveUp(msg, claimedUntil)) {
        result.failed++
        log.error(
          { outboxId: msg.id, kind: msg.kind, attempts: msg.attempts - 1 },
          'outbox: no outcome recorded for any attempt, gave up',
        )
      }
      return
    }
    const lockedUntil = await renewLock(msg, claimedUntil)
    if (!lockedUntil) {
      log.warn({ outboxId: msg.id }, 'outbox: message taken over by another worker, skipped')
      return
    }

    let sendError: unknown
    try {
      await transport.send({
        from,
        to: msg.toAddress,
        subject: msg.subject,
        text: msg.textBody,
        ...(msg.htmlBody === null ? {} : { html: msg.htmlBody }),
        ...(msg.headers ? { headers: msg.headers } : {}),
        ...(msg.attachments?.length ? { attachments: msg.attachments } : {}),
        messageId: messageIdOf(msg, messageIdDomain),
      })
    } catch (err) {
      sendError = err ?? new Error('unknown error')
    }

    if (sendError === undefined) {
      if (await recordSuccess(msg, lockedUntil)) {
        result.delivered++
        log.info({ outboxId: msg.id, kind: msg.kind }, 'outbox: e-mail delivered')
      } else {
        log.warn({ outboxId: msg.id }, 'outbox: delivered, but the claim was lost meanwhile')
      }
      return
    }

    const error = describeError(sendError)
    const outcome = await recordFailure(msg, lockedUntil, error)
    const fields = { outboxId: msg.id, kind: msg.kind, attempt: msg.attempts, error }
    if (outcome === 'retried') {
      result.retried++
      log.warn(fields, 'outbox: sending failed, will retry')
    } else if (outcome === 'failed') {
      result.failed++
      log.error(fields, 'outbox: sending failed for good')
    } else {
      log.warn(fields, 'outbox: sending failed, and the claim was lost meanwhile')
    }
  }

  async function processBatch(): Promise<OutboxRunResult> {
    const result: OutboxRunResult = { delivered: 0, retried: 0, failed: 0 }
    if (stopped) return result
    const batch = await claimBatch(clock.now())

    for (const [index, msg] of batch.entries()) {
      if (stopped) {
        await release(batch.slice(index), msg.lockedUntil!)
        break
      }
      try {
        await processMessage(msg, result)
      } catch (err) {
        // Most likely the database went away. The rest of the batch was not tried: hand it back
        // (attempts included) if we still can, rather than leave it locked with attempts spent.
        await release(batch.slice(index + 1), msg.lockedUntil!).catch(() => {})
        throw err
      }
    }
    return result
  }

  function runOnce(): Promise<OutboxRunResult> {
    const run = tail.then(processBatch)
    tail = run.catch(() => {})
    return run
  }

  return {
    batchSize,
    runOnce,
    async stop() {
      stopped = true
      await tail
    },
  }
}

/**
 * A delivered or failed message keeps its address, subject and outcome (the e-mail activity
 * shows them) but not its bodies: a password-reset or vote link has no business outliving its
 * delivery. Cleared in the same update that records the outcome.
 */
const CLEARED_BODIES = { textBody: '', htmlBody: null, attachments: null }

/**
 * `<outbox-<id>.<16 characters from the row's random message_key>@domain>`: the same on every
 * attempt and in every process, so a resend after a crash carries the Message-ID of the first
 * send, and never the same for two messages, even in another install or a database that was
 * reset (which a receiver would otherwise drop as a duplicate). Hashed, so the header shows
 * nothing of the stored key.
 */
function messageIdOf(msg: { id: number; messageKey: string }, domain: string): string {
  const part = createHash('sha256').update(msg.messageKey).digest('base64url').slice(0, 16)
  return `<outbox-${msg.id}.${part}@${domain}>`
}

function domainOf(address: string): string {
  const match = /@([^\s>]+)\s*>?\s*$/.exec(address)
  return match ? match[1]!.toLowerCase() : 'podclub.invalid'
}

/**
 * What goes into `last_error` and the log: the message and SMTP reply, never credentials. A
 * connection error can quote the URL it was given, so user info in URLs is masked.
 */
function describeError(err: unknown): string {
  const base = err instanceof Error ? err.message : String(err)
  const response = (err as { response?: unknown } | null)?.response
  const text =
    typeof response === 'string' && !base.includes(response) ? `${base} (${response})` : base
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@').slice(0, 500)
}
