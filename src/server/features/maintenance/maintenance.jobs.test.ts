import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  idempotencyKeys,
  outboxAttempts,
  outboxMessages,
  passwordResetTokens,
  rateLimits,
  sessions,
} from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { listEmailActivity } from '../mail/mail.service'
import { pruneExpiredJob } from './maintenance.jobs'

let t: TestApp
const clock = fixedClock('2026-11-21T12:00:00Z')
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.db.delete(outboxMessages)
})

const HOUR = 3_600_000
const DAY = 24 * HOUR
const ago = (ms: number) => new Date(clock.now().getTime() - ms)

type OutboxRow = {
  subject: string
  status: 'pending' | 'sending' | 'delivered' | 'failed'
  createdAt: Date
  /** When each attempt happened, oldest first; the last one succeeded when delivered. */
  attempts?: Date[]
  body?: string
}

/** Inserts outbox messages as the worker would have left them; returns their ids by subject. */
async function insertOutbox(rows: OutboxRow[]) {
  const inserted = await t.db
    .insert(outboxMessages)
    .values(
      rows.map((r) => {
        const tries = r.attempts ?? []
        return {
          toAddress: `${r.subject}@example.org`,
          subject: r.subject,
          textBody: r.body ?? '',
          kind: 'test',
          status: r.status,
          attempts: tries.length,
          createdAt: r.createdAt,
          nextAttemptAt: r.createdAt,
          deliveredAt: r.status === 'delivered' ? tries.at(-1) : null,
        }
      }),
    )
    .returning({ id: outboxMessages.id, subject: outboxMessages.subject })
  const attempts = rows.flatMap((r, i) =>
    (r.attempts ?? []).map((at, n, all) => ({
      messageId: inserted[i]!.id,
      attemptedAt: at,
      success: r.status === 'delivered' && n === all.length - 1,
    })),
  )
  if (attempts.length > 0) await t.db.insert(outboxAttempts).values(attempts)
  return new Map(inserted.map((r) => [r.subject, r.id]))
}

async function outboxSubjects() {
  const rows = await t.db.select({ subject: outboxMessages.subject }).from(outboxMessages)
  return rows.map((r) => r.subject).sort()
}

describe('pruneExpiredJob', () => {
  it('deletes only what has run out', async () => {
    const user = await createUser(t)
    const hour = 3_600_000
    const at = (ms: number) => new Date(clock.now().getTime() + ms)
    await t.db.insert(sessions).values([
      { idHash: 'expired', userId: user.id, expiresAt: at(-hour) },
      { idHash: 'live', userId: user.id, expiresAt: at(hour) },
    ])
    await t.db.insert(rateLimits).values([
      { key: 'old', points: 3, expire: at(-hour) },
      { key: 'current', points: 3, expire: at(hour) },
    ])
    await t.db.insert(passwordResetTokens).values([
      { userId: user.id, tokenHash: 'stale', expiresAt: at(-48 * hour) },
      { userId: user.id, tokenHash: 'used-long-ago', expiresAt: at(hour), usedAt: at(-30 * hour) },
      { userId: user.id, tokenHash: 'fresh', expiresAt: at(hour) },
    ])
    await t.db.insert(idempotencyKeys).values([
      { userId: user.id, scope: 'register:1', key: 'day-old', createdAt: at(-25 * hour) },
      { userId: user.id, scope: 'register:1', key: 'recent', createdAt: at(-23 * hour) },
    ])

    expect(await pruneExpiredJob.run({ db: t.db, clock })).toEqual({
      sessions: 1,
      rateLimits: 1,
      resetTokens: 2,
      idempotencyKeys: 1,
      outboxMessages: 0,
      outboxBodiesCleared: 0,
    })
    expect(
      (await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).map((s) => s.idHash),
    ).toEqual(['live'])
    expect((await t.db.select().from(rateLimits)).map((r) => r.key)).toContain('current')
    expect((await t.db.select().from(passwordResetTokens)).map((r) => r.tokenHash)).toEqual([
      'fresh',
    ])
    expect((await t.db.select().from(idempotencyKeys)).map((r) => r.key)).toEqual(['recent'])
  })
})

describe('pruneExpiredJob on the outbox', () => {
  it('deletes done e-mails past 30 days, keeping the listed, the recent and the unsent', async () => {
    // Fifty recent deliveries fill the control panel's e-mail activity.
    const recent = Array.from({ length: 50 }, (_, i) => ({
      subject: `recent-${i}`,
      status: 'delivered' as const,
      createdAt: ago((i + 1) * HOUR),
      attempts: [ago((i + 1) * HOUR)],
    }))
    const ids = await insertOutbox([
      ...recent,
      {
        subject: 'delivered-40d',
        status: 'delivered',
        createdAt: ago(40 * DAY),
        attempts: [ago(40 * DAY)],
      },
      {
        subject: 'failed-41d',
        status: 'failed',
        createdAt: ago(45 * DAY),
        attempts: [ago(45 * DAY), ago(41 * DAY)],
      },
      {
        subject: 'failed-31d',
        status: 'failed',
        createdAt: ago(31 * DAY),
        attempts: [ago(31 * DAY)],
      },
      // Created long ago, but its last attempt is recent.
      {
        subject: 'delivered-29d',
        status: 'delivered',
        createdAt: ago(60 * DAY),
        attempts: [ago(60 * DAY), ago(29 * DAY)],
      },
      // Never deleted, however old: they are still to be sent.
      {
        subject: 'pending-60d',
        status: 'pending',
        createdAt: ago(60 * DAY),
        attempts: [ago(60 * DAY)],
        body: 'still to send',
      },
      { subject: 'sending-60d', status: 'sending', createdAt: ago(60 * DAY), body: 'being sent' },
    ])
    const shownBefore = await listEmailActivity(t.db)
    expect(shownBefore.map((a) => a.subject)).toEqual(recent.map((r) => r.subject))

    const result = await pruneExpiredJob.run({ db: t.db, clock })

    expect(result).toMatchObject({ outboxMessages: 3, outboxBodiesCleared: 0 })
    expect(await outboxSubjects()).toEqual(
      [...recent.map((r) => r.subject), 'delivered-29d', 'pending-60d', 'sending-60d'].sort(),
    )
    // Their attempts went with them.
    const gone = ['delivered-40d', 'failed-41d', 'failed-31d'].map((s) => ids.get(s)!)
    expect(
      await t.db.select().from(outboxAttempts).where(inArray(outboxAttempts.messageId, gone)),
    ).toEqual([])
    expect(await listEmailActivity(t.db)).toEqual(shownBefore)
    // Nothing more to do on the next run.
    expect(await pruneExpiredJob.run({ db: t.db, clock })).toMatchObject({ outboxMessages: 0 })
  })

  it('keeps old e-mails while the e-mail activity still lists them', async () => {
    await insertOutbox([
      {
        subject: 'delivered-90d',
        status: 'delivered',
        createdAt: ago(90 * DAY),
        attempts: [ago(90 * DAY)],
      },
      {
        subject: 'failed-60d',
        status: 'failed',
        createdAt: ago(60 * DAY),
        attempts: [ago(60 * DAY)],
      },
    ])

    expect(await pruneExpiredJob.run({ db: t.db, clock })).toMatchObject({ outboxMessages: 0 })

    expect((await listEmailActivity(t.db)).map((a) => a.subject)).toEqual([
      'failed-60d',
      'delivered-90d',
    ])
  })

  it('clears the bodies done e-mails still hold, and only theirs', async () => {
    const ids = await insertOutbox([
      {
        subject: 'delivered',
        status: 'delivered',
        createdAt: ago(DAY),
        attempts: [ago(DAY)],
        body: 'token=abc',
      },
      {
        subject: 'failed',
        status: 'failed',
        createdAt: ago(DAY),
        attempts: [ago(DAY)],
        body: 'token=def',
      },
      { subject: 'pending', status: 'pending', createdAt: ago(DAY), body: 'token=ghi' },
    ])
    await t.db
      .update(outboxMessages)
      .set({ htmlBody: '<p>token</p>' })
      .where(eq(outboxMessages.id, ids.get('delivered')!))

    expect(await pruneExpiredJob.run({ db: t.db, clock })).toMatchObject({
      outboxMessages: 0,
      outboxBodiesCleared: 2,
    })

    const rows = await t.db
      .select({
        subject: outboxMessages.subject,
        text: outboxMessages.textBody,
        html: outboxMessages.htmlBody,
      })
      .from(outboxMessages)
      .orderBy(outboxMessages.subject)
    expect(rows).toEqual([
      { subject: 'delivered', text: '', html: null },
      { subject: 'failed', text: '', html: null },
      { subject: 'pending', text: 'token=ghi', html: null },
    ])
  })
})
