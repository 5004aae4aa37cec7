import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { outboxAttempts, outboxMessages } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, type TestApp } from '../../testing/test-app'
import { createTestDatabase, type TestDatabase } from '../../testing/test-db'
import { enqueueMail, listEmailActivity, type OutgoingMail } from './mail.service'
import type { OutboundMessage } from './mail.transport'
import { createOutboxWorker } from './outbox.worker'

/** Mail enqueued in a transaction of its own, as a service's would be. */
const enqueueInOwnTransaction = (db: Db, mail: Parameters<typeof enqueueMail>[1]) =>
  db.transaction((tx) => enqueueMail(tx, mail))

let database: TestDatabase
let db: Db

beforeAll(async () => {
  database = await createTestDatabase()
  db = database.db
})

afterAll(async () => {
  await database?.close()
})

beforeEach(async () => {
  await db.delete(outboxMessages)
})

async function attempt(messageId: number, success: boolean, at: string) {
  await db
    .insert(outboxAttempts)
    .values({ messageId, success, attemptedAt: new Date(at), error: success ? null : 'refused' })
}

describe('enqueueMail', () => {
  it('writes pending rows, due at once, and returns their ids in order', async () => {
    const ids = await enqueueInOwnTransaction(db, [
      { to: 'ada@example.org', subject: 'One', text: 'First', kind: 'test' },
      {
        to: 'bob@example.org',
        subject: 'Two',
        text: 'Second',
        html: '<p>Second</p>',
        kind: 'test',
      },
    ])

    expect(ids).toHaveLength(2)
    const rows = await db.select().from(outboxMessages).orderBy(outboxMessages.id)
    expect(rows.map((r) => r.id)).toEqual(ids)
    expect(rows).toMatchObject([
      { toAddress: 'ada@example.org', subject: 'One', htmlBody: null, status: 'pending' },
      { toAddress: 'bob@example.org', htmlBody: '<p>Second</p>', status: 'pending', attempts: 0 },
    ])
    // Due for any worker clock, even one fixed in the past.
    expect(rows.every((r) => r.nextAttemptAt.getTime() <= new Date('2000-01-01').getTime())).toBe(
      true,
    )
  })

  it('writes nothing for an empty list', async () => {
    expect(await enqueueInOwnTransaction(db, [])).toEqual([])
    expect(await db.select().from(outboxMessages)).toHaveLength(0)
  })
})

const reminder = (subject: string, dedupeKey?: string): OutgoingMail => ({
  to: 'ada@example.org',
  subject,
  text: subject,
  kind: 'reminder-1d',
  ...(dedupeKey === undefined ? {} : { dedupeKey }),
})

async function subjects(database: { db: Db } = { db }) {
  const rows = await database.db
    .select({ subject: outboxMessages.subject })
    .from(outboxMessages)
    .orderBy(outboxMessages.id)
  return rows.map((r) => r.subject)
}

/** A promise with its resolve function, to hold a transaction open until the test lets it go. */
function signal() {
  let fire!: () => void
  const fired = new Promise<void>((resolve) => (fire = resolve))
  return { fire, fired }
}

describe('enqueueMail with a dedupe key', () => {
  it('skips a second message with the same key and returns no id for it', async () => {
    const [first] = await enqueueInOwnTransaction(
      db,
      reminder('First', 'reminder-1d:podclub-1:user-7'),
    )
    expect(first).toBeDefined()

    expect(
      await enqueueInOwnTransaction(db, reminder('Second', 'reminder-1d:podclub-1:user-7')),
    ).toEqual([])

    expect(await subjects()).toEqual(['First'])
  })

  it('returns the ids of the new messages only, also for a key repeated in one list', async () => {
    await enqueueInOwnTransaction(db, reminder('Used before', 'key-a'))

    const ids = await enqueueInOwnTransaction(db, [
      reminder('Again a', 'key-a'),
      reminder('New b', 'key-b'),
      reminder('No key'),
      reminder('Again b', 'key-b'),
      reminder('No key either'),
    ])

    const rows = await db
      .select({ id: outboxMessages.id, subject: outboxMessages.subject })
      .from(outboxMessages)
      .orderBy(outboxMessages.id)
    expect(rows.map((r) => r.subject)).toEqual(['Used before', 'New b', 'No key', 'No key either'])
    expect(ids).toEqual(rows.slice(1).map((r) => r.id))
  })

  it('keeps one message when two transactions enqueue the same key at once', async () => {
    // A second handle, as a second app process has (on PostgreSQL its own connections).
    const other = await database.connectAgain()
    try {
      const firstEnqueued = signal()
      const commitFirst = signal()
      const first = db.transaction(async (tx) => {
        const ids = await enqueueMail(tx, reminder('From the first', 'blast-3:user-7'))
        firstEnqueued.fire()
        await commitFirst.fired
        return ids
      })
      await firstEnqueued.fired
      // On PostgreSQL this insert waits on the first transaction's uncommitted row.
      const second = other.db.transaction((tx) =>
        enqueueMail(tx, reminder('From the second', 'blast-3:user-7')),
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      commitFirst.fire()

      const [firstIds, secondIds] = await Promise.all([first, second])
      expect(firstIds).toHaveLength(1)
      expect(secondIds).toEqual([])
      expect(await subjects()).toEqual(['From the first'])
    } finally {
      await other.close()
    }
  })

  it('gives the key to the other transaction when the first one rolls back', async () => {
    const other = await database.connectAgain()
    try {
      const firstEnqueued = signal()
      const rollBackFirst = signal()
      const first = db.transaction(async (tx) => {
        await enqueueMail(tx, reminder('Rolled back', 'blast-4:user-7'))
        firstEnqueued.fire()
        await rollBackFirst.fired
        throw new Error('the change failed')
      })
      await firstEnqueued.fired
      const second = other.db.transaction((tx) =>
        enqueueMail(tx, reminder('Kept', 'blast-4:user-7')),
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      rollBackFirst.fire()

      await expect(first).rejects.toThrow('the change failed')
      expect(await second).toHaveLength(1)
      expect(await subjects()).toEqual(['Kept'])
    } finally {
      await other.close()
    }
  })
})

describe('transaction() and the outbox', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildTestApp({ database })
  })
  afterAll(() => t?.close())

  it('wakes the outbox once after a commit that enqueued mail', async () => {
    const before = t.outboxWakes()
    await transaction(t.deps, async (tx) => {
      await enqueueMail(tx, reminder('One'))
      await enqueueMail(tx, reminder('Two'))
    })
    expect(t.outboxWakes()).toBe(before + 1)
    expect(await subjects()).toEqual(['One', 'Two'])
  })

  it('does not wake it for a transaction without new mail', async () => {
    await enqueueInOwnTransaction(db, reminder('Queued before', 'reminder-1w:podclub-2:user-1'))
    const before = t.outboxWakes()

    await transaction(t.deps, async (tx) => tx.select().from(outboxMessages))
    // Only a message skipped for its dedupe key: nothing new to send.
    const skipped = await transaction(t.deps, (tx) =>
      enqueueMail(tx, reminder('Again', 'reminder-1w:podclub-2:user-1')),
    )

    expect(skipped).toEqual([])
    expect(t.outboxWakes()).toBe(before)
  })

  it('does not wake it when the transaction rolls back, and its mail is gone', async () => {
    const before = t.outboxWakes()
    await expect(
      transaction(t.deps, async (tx) => {
        await enqueueMail(tx, reminder('Never sent'))
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')

    expect(t.outboxWakes()).toBe(before)
    expect(await subjects()).toEqual([])
  })

  it('wakes it only once the mail is committed, so a worker elsewhere finds it', async () => {
    // The worker uses its own handle, as the outbox of another process would.
    const other = await database.connectAgain()
    const sent: OutboundMessage[] = []
    const worker = createOutboxWorker({
      db: other.db,
      transport: { send: async (m) => void sent.push(m), close: () => {} },
      clock: fixedClock('2030-01-01T00:00:00Z'),
      from: 'podclub <hello@podclub.test>',
      log: { info: () => {}, warn: () => {}, error: () => {} },
    })
    const runs: Array<ReturnType<typeof worker.runOnce>> = []
    try {
      await transaction({ db, wakeOutbox: () => void runs.push(worker.runOnce()) }, (tx) =>
        enqueueMail(tx, reminder('Found at once')),
      )
      expect(runs).toHaveLength(1)
      expect(await runs[0]).toEqual({ delivered: 1, retried: 0, failed: 0 })
      expect(sent.map((m) => m.subject)).toEqual(['Found at once'])
    } finally {
      await worker.stop()
      await other.close()
    }
  })
})

describe('listEmailActivity', () => {
  it('lists tried messages by latest attempt, newest first, with their outcome', async () => {
    const [delivered, retrying, failed, untried] = await enqueueInOwnTransaction(
      db,
      ['delivered', 'retrying', 'failed', 'untried'].map((s) => ({
        to: `${s}@example.org`,
        subject: s,
        text: s,
        kind: 'test',
      })),
    )
    await attempt(delivered!, false, '2030-01-01T10:00:00Z')
    await attempt(delivered!, true, '2030-01-01T10:01:00Z')
    await db
      .update(outboxMessages)
      .set({ status: 'delivered', attempts: 2 })
      .where(eq(outboxMessages.id, delivered!))
    await attempt(retrying!, false, '2030-01-01T10:03:00Z')
    await db.update(outboxMessages).set({ attempts: 1 }).where(eq(outboxMessages.id, retrying!))
    await attempt(failed!, false, '2030-01-01T10:02:00Z')
    await db
      .update(outboxMessages)
      .set({ status: 'failed', attempts: 1 })
      .where(eq(outboxMessages.id, failed!))
    expect(untried).toBeDefined()

    expect(await listEmailActivity(db)).toEqual([
      {
        date_created: '2030-01-01T10:03:00.000Z',
        email: 'retrying@example.org',
        subject: 'retrying',
        success: false,
      },
      {
        date_created: '2030-01-01T10:02:00.000Z',
        email: 'failed@example.org',
        subject: 'failed',
        success: false,
      },
      {
        date_created: '2030-01-01T10:01:00.000Z',
        email: 'delivered@example.org',
        subject: 'delivered',
        success: true,
      },
    ])
    expect((await listEmailActivity(db, 1)).map((a) => a.subject)).toEqual(['retrying'])
  })
})
