import { createServer, type Server } from 'node:net'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database, Db } from '../../db/client'
import { outboxAttempts, outboxMessages } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { startTestSmtp, type TestSmtp } from '../../testing/smtp'
import { expectNothingUncaught } from '../../testing/uncaught'
import { createTestDatabase } from '../../testing/test-db'
import { enqueueMail, listEmailActivity, type OutgoingMail } from './mail.service'
import { createLogTransport, createSmtpTransport, type MailTransport } from './mail.transport'
import { createOutboxWorker, retryDelayMs, type OutboxWorkerDeps } from './outbox.worker'

/** Mail enqueued in a transaction of its own, as a service's would be. */
const enqueueInOwnTransaction = (db: Db, mail: Parameters<typeof enqueueMail>[1]) =>
  db.transaction((tx) => enqueueMail(tx, mail))

const START = '2030-03-01T09:00:00.000Z'
const clock = fixedClock(START)

let database: Database
let db: Db
let smtp: TestSmtp
let transport: MailTransport

function makeLog() {
  const entries: Array<{ level: 'info' | 'warn' | 'error'; obj: object; msg: string }> = []
  return {
    entries,
    info: (obj: object, msg: string) => void entries.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => void entries.push({ level: 'warn', obj, msg }),
    error: (obj: object, msg: string) => void entries.push({ level: 'error', obj, msg }),
  }
}

function worker(overrides: Partial<OutboxWorkerDeps> = {}) {
  return createOutboxWorker({
    db,
    transport,
    clock,
    from: 'podclub <noreply@podclub.test>',
    log: makeLog(),
    ...overrides,
  })
}

/** `<outbox-<id>.<16 opaque characters>@podclub.test>` */
const messageIdPattern = (id: number) =>
  new RegExp(`^<outbox-${id}\\.[A-Za-z0-9_-]{16}@podclub\\.test>$`)

function mail(subject: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return { to: 'ada@example.org', subject, text: `Body of ${subject}`, kind: 'test', ...overrides }
}

async function row(id: number) {
  const [found] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id))
  if (!found) throw new Error(`no outbox message ${id}`)
  return found
}

async function attemptsOf(id: number) {
  return db
    .select()
    .from(outboxAttempts)
    .where(eq(outboxAttempts.messageId, id))
    .orderBy(outboxAttempts.id)
}

/** Wraps the real SMTP transport so that a send starts, then waits for the test to let it go. */
function gatedTransport() {
  let markStarted!: () => void
  const started = new Promise<void>((resolve) => (markStarted = resolve))
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const gated: MailTransport = {
    async send(msg) {
      markStarted()
      await gate
      await transport.send(msg)
    },
    close() {},
  }
  return { transport: gated, started, release }
}

/** Simulates an SMTP outage and the server coming back on the same address. */
async function smtpDown(): Promise<() => Promise<void>> {
  const port = smtp.port
  await smtp.stop()
  const bringBack = async () => {
    if (smtpBack !== bringBack) return
    smtpBack = undefined
    smtp = await startTestSmtp({ port })
  }
  smtpBack = bringBack
  return bringBack
}
/** Set while the SMTP server is down, so that a failed test doesn't leave it down for the next. */
let smtpBack: (() => Promise<void>) | undefined

beforeAll(async () => {
  database = await createTestDatabase()
  db = database.db
  smtp = await startTestSmtp()
  transport = createSmtpTransport(smtp.url)
})

afterAll(async () => {
  transport?.close()
  await smtp?.stop()
  await database?.close()
})

beforeEach(async () => {
  await smtpBack?.()
  await db.delete(outboxMessages)
  smtp.messages.length = 0
  clock.set(START)
})

describe('outbox worker', () => {
  it('delivers committed mail through SMTP, then forgets its bodies', async () => {
    const [id] = await enqueueInOwnTransaction(
      db,
      mail('Welcome to podclub', { html: '<p>Body of Welcome to podclub</p>' }),
    )

    const result = await worker().runOnce()

    expect(result).toEqual({ delivered: 1, retried: 0, failed: 0 })
    const received = await smtp.waitFor((m) => m.subject === 'Welcome to podclub')
    expect(received.to).toEqual(['ada@example.org'])
    expect(received.from).toBe('noreply@podclub.test')
    expect(received.text.trim()).toBe('Body of Welcome to podclub')
    expect(received.messageId).toMatch(messageIdPattern(id!))
    const delivered = await row(id!)
    expect(delivered.status).toBe('delivered')
    expect(delivered.attempts).toBe(1)
    // What was sent is not kept: a reset or vote link must not outlive its delivery.
    expect(delivered.textBody).toBe('')
    expect(delivered.htmlBody).toBeNull()
    expect(delivered.subject).toBe('Welcome to podclub')
    expect(delivered.deliveredAt?.toISOString()).toBe(START)
    expect(delivered.lockedUntil).toBeNull()
    expect((await attemptsOf(id!)).map((a) => a.success)).toEqual([true])
  })

  it('never sends mail enqueued in a transaction that rolls back', async () => {
    await expect(
      db.transaction(async (tx) => {
        await enqueueMail(tx, mail('Rolled back'))
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    await db.transaction(async (tx) => {
      await enqueueMail(tx, mail('Committed'))
    })

    const result = await worker().runOnce()

    expect(result).toEqual({ delivered: 1, retried: 0, failed: 0 })
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Committed'])
    expect(await db.select().from(outboxMessages)).toHaveLength(1)
  })

  it('keeps mail while SMTP is down and delivers it once after the backoff', async () => {
    const [id] = await enqueueInOwnTransaction(db, mail('Reset your password'))
    const smtpBack = await smtpDown()
    const w = worker()

    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 1, failed: 0 })
    const waiting = await row(id!)
    expect(waiting.status).toBe('pending')
    expect(waiting.attempts).toBe(1)
    // Kept for the retry.
    expect(waiting.textBody).toBe('Body of Reset your password')
    expect(waiting.nextAttemptAt.getTime()).toBe(new Date(START).getTime() + 30_000)
    expect(waiting.lastError).toMatch(/ECONNREFUSED|connect/i)
    expect(await attemptsOf(id!)).toMatchObject([{ success: false }])

    await smtpBack()
    // Back up, but the retry isn't due yet.
    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 0, failed: 0 })
    expect(smtp.messages).toHaveLength(0)

    clock.advance(30_000)
    expect(await w.runOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 })
    clock.advance(60 * 60_000)
    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 0, failed: 0 })

    expect(smtp.messages.map((m) => m.subject)).toEqual(['Reset your password'])
    const delivered = await row(id!)
    expect(delivered.status).toBe('delivered')
    expect(delivered.attempts).toBe(2)
    expect((await attemptsOf(id!)).map((a) => a.success)).toEqual([false, true])
  })

  it('survives an SMTP server that resets the connection, at once or mid-session, and delivers later', async () => {
    // A server that greets (or not), then resets the connection on the first command.
    const resetting = async (greet: boolean) => {
      const server: Server = createServer((socket) => {
        socket.on('error', () => {})
        if (!greet) return socket.resetAndDestroy()
        socket.write('220 podclub.test ESMTP\r\n')
        socket.once('data', () => socket.resetAndDestroy())
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      return { server, port: (server.address() as { port: number }).port }
    }
    const [id] = await enqueueInOwnTransaction(db, mail('Through a flaky server'))
    for (const greet of [false, true]) {
      const flaky = await resetting(greet)
      const flakyTransport = createSmtpTransport(`smtp://127.0.0.1:${flaky.port}`)
      try {
        const result = await expectNothingUncaught(() =>
          worker({ transport: flakyTransport }).runOnce(),
        )
        expect(result).toEqual({ delivered: 0, retried: 1, failed: 0 })
        expect((await row(id!)).lastError).toMatch(/ECONNRESET|closed|socket|Connection/i)
      } finally {
        flakyTransport.close()
        await new Promise((resolve) => flaky.server.close(resolve))
      }
      clock.advance(60 * 60_000)
    }
    expect(await worker().runOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 })
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Through a flaky server'])
    expect((await attemptsOf(id!)).map((a) => a.success)).toEqual([false, false, true])
  })

  it('delivers pending mail after a restart, and delivered mail is not sent again', async () => {
    await enqueueInOwnTransaction(db, [mail('First'), mail('Second'), mail('Third')])
    const before = worker({ batchSize: 1 })
    expect(await before.runOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 })
    await before.stop()

    const after = worker()
    expect(await after.runOnce()).toEqual({ delivered: 2, retried: 0, failed: 0 })
    expect(await after.runOnce()).toEqual({ delivered: 0, retried: 0, failed: 0 })

    expect(smtp.messages.map((m) => m.subject)).toEqual(['First', 'Second', 'Third'])
  })

  it('takes over a message left in sending by a process that died, once its lock expires', async () => {
    const [id] = await enqueueInOwnTransaction(db, mail('Orphaned'))
    const lockMs = 60_000
    await db
      .update(outboxMessages)
      .set({ status: 'sending', lockedUntil: new Date(new Date(START).getTime() + lockMs) })
      .where(eq(outboxMessages.id, id!))
    const w = worker({ lockMs })

    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 0, failed: 0 })
    expect(smtp.messages).toHaveLength(0)

    clock.advance(lockMs + 1)
    expect(await w.runOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 })
    const received = await smtp.waitFor((m) => m.subject === 'Orphaned')
    expect(received.messageId).toMatch(messageIdPattern(id!))
    const delivered = await row(id!)
    expect(delivered.status).toBe('delivered')
    // The take-over is the message's first counted attempt: the dead process's claim predates it.
    expect(delivered.attempts).toBe(1)
  })

  it('does not record over a worker that took the message over while the first one hung', async () => {
    const lockMs = 60_000
    const [id] = await enqueueInOwnTransaction(db, mail('Slow'))
    const first = gatedTransport()
    const firstRun = worker({ transport: first.transport, lockMs }).runOnce()
    await first.started

    // The first worker looks dead: its lock runs out and a second one takes over, then hangs too.
    clock.advance(lockMs + 1)
    const second = gatedTransport()
    const secondRun = worker({ transport: second.transport, lockMs }).runOnce()
    await second.started

    // Both sends go through (that much is unavoidable), but only the owner marks the message.
    first.release()
    expect(await firstRun).toEqual({ delivered: 0, retried: 0, failed: 0 })
    expect((await row(id!)).status).toBe('sending')
    second.release()
    expect(await secondRun).toEqual({ delivered: 1, retried: 0, failed: 0 })

    const delivered = await row(id!)
    expect(delivered.status).toBe('delivered')
    // Two claims, two sends: both count, though only the owner's outcome is recorded.
    expect(delivered.attempts).toBe(2)
    expect(await attemptsOf(id!)).toHaveLength(1)
    // Both sends carry the same Message-ID, so a receiver can drop the duplicate.
    const ids = [...new Set(smtp.messages.map((m) => m.messageId))]
    expect(ids).toHaveLength(1)
    expect(ids[0]).toMatch(messageIdPattern(id!))
  })

  it('counts an attempt at the claim, so a send that never reports back is not retried forever', async () => {
    const lockMs = 60_000
    const [id] = await enqueueInOwnTransaction(
      db,
      mail('Crashes the sender', { html: '<p>secret link</p>' }),
    )
    // Each of these workers claims the message and then hangs mid-send, as a process that
    // crashed would: its outcome is never recorded, and the next one takes over after the lock.
    const hung = [gatedTransport(), gatedTransport()]
    const hungRuns = []
    for (const gated of hung) {
      hungRuns.push(worker({ transport: gated.transport, lockMs, maxAttempts: 2 }).runOnce())
      await gated.started
      clock.advance(lockMs + 1)
    }
    expect((await row(id!)).attempts).toBe(2)

    const log = makeLog()
    expect(await worker({ lockMs, maxAttempts: 2, log }).runOnce()).toEqual({
      delivered: 0,
      retried: 0,
      failed: 1,
    })

    const failed = await row(id!)
    expect(failed).toMatchObject({ status: 'failed', attempts: 2, textBody: '', htmlBody: null })
    expect(failed.lockedUntil).toBeNull()
    expect(failed.lastError).toMatch(/without a recorded outcome/)
    expect(log.entries.filter((e) => e.level === 'error')).toHaveLength(1)
    // The give-up shows in the control panel's e-mail activity.
    expect(await listEmailActivity(db)).toMatchObject([
      { subject: 'Crashes the sender', success: false, date_created: clock.now().toISOString() },
    ])

    // The hung sends finally return: they no longer own the message and change nothing.
    for (const gated of hung) gated.release()
    for (const run of hungRuns) expect(await run).toEqual({ delivered: 0, retried: 0, failed: 0 })
    expect(await row(id!)).toMatchObject({ status: 'failed', attempts: 2 })
    expect(await worker({ lockMs, maxAttempts: 2 }).runOnce()).toEqual({
      delivered: 0,
      retried: 0,
      failed: 0,
    })
  })

  it('gives up on a message left in sending with all its attempts used', async () => {
    const [id] = await enqueueInOwnTransaction(db, mail('Left behind'))
    // A process claimed it for its last attempt, then could not record the outcome.
    await db
      .update(outboxMessages)
      .set({ status: 'sending', attempts: 3, lockedUntil: new Date(new Date(START).getTime() - 1) })
      .where(eq(outboxMessages.id, id!))

    expect(await worker({ maxAttempts: 3 }).runOnce()).toEqual({
      delivered: 0,
      retried: 0,
      failed: 1,
    })
    expect(smtp.messages).toHaveLength(0)
    expect(await row(id!)).toMatchObject({ status: 'failed', attempts: 3, textBody: '' })
  })

  it('gives the same row number of another database a different Message-ID (a random part)', async () => {
    const [first] = await enqueueInOwnTransaction(db, mail('Before the reset'))
    await worker().runOnce()
    // As after restoring an empty database, or on a second install with the same MAIL_FROM.
    await db.delete(outboxMessages)
    await db.execute(sql`select setval('outbox_messages_id_seq', ${first!}, false)`)
    const [again] = await enqueueInOwnTransaction(db, mail('After the reset'))
    expect(again).toBe(first)
    await worker().runOnce()

    const [before, after] = smtp.messages
    expect(before!.messageId).toMatch(messageIdPattern(first!))
    expect(after!.messageId).toMatch(messageIdPattern(first!))
    expect(after!.messageId).not.toBe(before!.messageId)
  })

  it('delivers each message exactly once when two workers run at the same time', async () => {
    const subjects = Array.from({ length: 15 }, (_, i) => `Notice ${i + 1}`)
    await enqueueInOwnTransaction(
      db,
      subjects.map((s) => mail(s)),
    )
    const a = worker({ batchSize: 3 })
    const b = worker({ batchSize: 3 })

    let delivered = 0
    for (let round = 0; round < 20; round++) {
      const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()])
      if (ra.delivered + rb.delivered === 0) break
      delivered += ra.delivered + rb.delivered
    }

    expect(delivered).toBe(15)
    expect(smtp.messages.map((m) => m.subject).sort()).toEqual([...subjects].sort())
    expect(await db.select().from(outboxAttempts)).toHaveLength(15)
    const statuses = await db.select({ status: outboxMessages.status }).from(outboxMessages)
    expect(statuses.every((s) => s.status === 'delivered')).toBe(true)
  })

  it('marks a message failed after maxAttempts, and the activity shows both outcomes', async () => {
    const [failingId] = await enqueueInOwnTransaction(
      db,
      mail('Never arrives', { to: 'gone@example.org' }),
    )
    const smtpBack = await smtpDown()
    const log = makeLog()
    const w = worker({ maxAttempts: 3, log })

    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 1, failed: 0 })
    clock.advance(retryDelayMs(1))
    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 1, failed: 0 })
    clock.advance(retryDelayMs(2))
    const failedAt = clock.now().toISOString()
    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 0, failed: 1 })

    const failed = await row(failingId!)
    expect(failed.status).toBe('failed')
    expect(failed.attempts).toBe(3)
    expect(failed.textBody).toBe('')
    expect(failed.htmlBody).toBeNull()
    expect((await attemptsOf(failingId!)).map((a) => a.success)).toEqual([false, false, false])
    expect(log.entries.filter((e) => e.level === 'error')).toHaveLength(1)

    await smtpBack()
    await enqueueInOwnTransaction(db, mail('Arrives', { to: 'bob@example.org' }))
    clock.advance(60 * 60_000)
    const deliveredAt = clock.now().toISOString()
    // The failed message stays failed: only the new one goes out.
    expect(await w.runOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 })
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Arrives'])

    expect(await listEmailActivity(db)).toEqual([
      { date_created: deliveredAt, email: 'bob@example.org', subject: 'Arrives', success: true },
      {
        date_created: failedAt,
        email: 'gone@example.org',
        subject: 'Never arrives',
        success: false,
      },
    ])
  })

  it('stop() resolves only after the e-mail being sent is delivered', async () => {
    const slow = gatedTransport()
    const [firstId, secondId] = await enqueueInOwnTransaction(db, [
      mail('In flight'),
      mail('Next in batch'),
    ])
    const w = worker({ transport: slow.transport })

    const run = w.runOnce()
    await slow.started
    let hasStopped = false
    const stopping = w.stop().then(() => {
      hasStopped = true
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(hasStopped).toBe(false)

    slow.release()
    await stopping
    expect(await run).toEqual({ delivered: 1, retried: 0, failed: 0 })
    expect(smtp.messages.map((m) => m.subject)).toEqual(['In flight'])
    expect((await row(firstId!)).status).toBe('delivered')
    // The rest of the batch is handed back, not left locked for five minutes.
    const handedBack = await row(secondId!)
    expect(handedBack.status).toBe('pending')
    expect(handedBack.lockedUntil).toBeNull()
    // It was never tried, so its claim doesn't use up an attempt.
    expect(handedBack.attempts).toBe(0)

    // A stopped worker sends nothing more; the next process picks the message up.
    expect(await w.runOnce()).toEqual({ delivered: 0, retried: 0, failed: 0 })
    expect(await worker().runOnce()).toEqual({ delivered: 1, retried: 0, failed: 0 })
    expect(smtp.messages.map((m) => m.subject)).toEqual(['In flight', 'Next in batch'])
  })

  it('keeps long links and non-ASCII text intact through the real SMTP path', async () => {
    const link = `https://podclub.example/reset-password?token=${'a1b2c3d4'.repeat(12)}&uid=42`
    await enqueueInOwnTransaction(
      db,
      mail('Café ☕: réinitialiser', { text: `Hello Zoë,\n\nReset your password:\n${link}\n` }),
    )

    await worker().runOnce()

    const received = await smtp.waitFor((m) => m.subject === 'Café ☕: réinitialiser')
    expect(received.text).toContain(`Hello Zoë,`)
    expect(received.text).toContain(link)
  })

  it('writes the whole text to the log when there is no SMTP server', async () => {
    const serverLog = makeLog()
    await enqueueInOwnTransaction(
      db,
      mail('Reset', { text: 'Open https://podclub.example/reset?token=xyz' }),
    )

    const result = await worker({ transport: createLogTransport(serverLog) }).runOnce()

    expect(result).toEqual({ delivered: 1, retried: 0, failed: 0 })
    expect(serverLog.entries).toHaveLength(1)
    expect(JSON.stringify(serverLog.entries[0]!.obj)).toContain(
      'https://podclub.example/reset?token=xyz',
    )
    expect(smtp.messages).toHaveLength(0)
  })
})
