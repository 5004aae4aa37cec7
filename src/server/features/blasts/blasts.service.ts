import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm'
import { clubMonthKey } from '#contract/club-time'
import type { CreateBlastBody } from '#contract/control-panel'
import type { Podclub } from '#contract/podclubs'
import type { Tx } from '../../db/client'
import { podclubs, registrations, users } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError } from '../../lib/app-error'
import { links } from '../../lib/links'
import { hmac, safeEqual } from '../../lib/tokens'
import { isActiveAccount } from '../accounts/accounts.rules'
import { enqueueMail } from '../mail/mail.service'
import { readPodclubs } from '../podclubs/podclubs.queries'
import { whySeatsAreClosed } from '../podclubs/podclubs.rules'
import { blastMail, type UnsubscribeLinks } from './blasts.mail'

/** Members queued per transaction: memory stays flat however large the club. */
export const BLAST_BATCH_SIZE = 500

const unsubscribeToken = (deps: AppDeps, userId: number) =>
  hmac(deps.sessionSecret, `unsubscribe-blasts:${userId}`)

export function unsubscribeLinks(deps: AppDeps, userId: number): UnsubscribeLinks {
  const token = unsubscribeToken(deps, userId)
  return {
    page: links(deps.env).unsubscribe(userId, token),
    oneClick: links(deps.env).unsubscribeOneClick(userId, token),
  }
}

/** Turns monthly blasts off for a member, given the signed link of a blast. Idempotent. */
export async function unsubscribeFromBlasts(deps: AppDeps, uid: number, token: string) {
  if (!safeEqual(unsubscribeToken(deps, uid), token)) {
    throw new AppError('NOT_FOUND', 'This unsubscribe link is not valid.')
  }
  await transaction(deps, async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ blastsUnsubscribedAt: deps.clock.now() })
      .where(and(eq(users.id, uid), isNull(users.blastsUnsubscribedAt)))
      .returning({ id: users.id })
    if (row) return
    const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, uid))
    if (!exists) throw new AppError('NOT_FOUND', 'This unsubscribe link is not valid.')
  })
}

/** The three podclubs of a blast, in the order given; each must exist and be upcoming. */
export async function blastPodclubs(deps: AppDeps, body: CreateBlastBody): Promise<Podclub[]> {
  const ids = [body.podclub_1, body.podclub_2, body.podclub_3]
  const found = await readPodclubs(deps.db, inArray(podclubs.id, ids))
  const now = deps.clock.now()
  return ids.map((id, i) => {
    const podclub = found.find((p) => p.id === id)
    const field = `podclub_${i + 1}`
    if (!podclub) throw new AppError('NOT_FOUND', `podclub ${id} (${field}) does not exist.`)
    // A blast offers seats: only podclubs whose seats are open.
    const closed = whySeatsAreClosed(
      { status: podclub.status, startsAt: new Date(podclub.starts_at) },
      now,
    )
    if (closed)
      throw new AppError(
        'BAD_REQUEST',
        `podclub ${id} (${field}) ${closed === 'started' ? 'has already started' : `is ${closed}`}: a blast lists upcoming podclubs only.`,
      )
    return podclub
  })
}

type Audience = 'superusers' | 'members'

/**
 * Queues the mail of a blast: the test blast to super users, the monthly one to every member who
 * has not unsubscribed. Members are read and queued in batches by id, each batch in its own
 * transaction, so memory stays flat however large the club; `onBatch` hears how far it got. The
 * dedupe key (the month, these podclubs, this member) makes a repeated or resumed monthly blast
 * skip whoever already has it.
 */
export async function queueBlastMail(
  deps: AppDeps,
  list: Podclub[],
  audience: Audience,
  month: string,
  onBatch: (reached: number) => Promise<void> = async () => {},
): Promise<{ queued: number }> {
  const ids = list.map((p) => p.id)
  const blastKey = `blast-${month}-${ids.join('-')}`
  const isTest = audience === 'superusers'
  let queued = 0
  let reached = 0
  let afterId = 0
  for (;;) {
    const batch = await deps.db
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(and(gt(users.id, afterId), audienceFilter(audience)))
      .orderBy(asc(users.id))
      .limit(BLAST_BATCH_SIZE)
    if (batch.length === 0) break
    afterId = batch[batch.length - 1]!.id
    queued += await transaction(deps, async (tx) => {
      // Seats are read again for each batch: a long blast says what is left when it is queued.
      const now = await readPodclubs(tx, inArray(podclubs.id, ids))
      const current = list.map((p) => now.find((q) => q.id === p.id) ?? p)
      const held = await readHeld(
        tx,
        ids,
        batch.map((m) => m.id),
      )
      const mail = await enqueueMail(
        tx,
        batch.map((member) =>
          blastMail(current, member, unsubscribeLinks(deps, member.id), deps.env, {
            test: isTest,
            held: held.get(member.id),
            ...(isTest ? {} : { dedupeKey: `${blastKey}:user-${member.id}` }),
          }),
        ),
      )
      return mail.length
    })
    reached += batch.length
    await onBatch(reached)
  }
  return { queued }
}

/** Which of the podclubs each of the members takes part in, and how. */
async function readHeld(tx: Tx, podclubIds: number[], userIds: number[]) {
  const [hosting, seats] = await Promise.all([
    tx
      .select({ podclubId: podclubs.id, userId: podclubs.podmeisterId })
      .from(podclubs)
      .where(and(inArray(podclubs.id, podclubIds), inArray(podclubs.podmeisterId, userIds))),
    tx
      .select({ podclubId: registrations.podclubId, userId: registrations.userId })
      .from(registrations)
      .where(
        and(inArray(registrations.podclubId, podclubIds), inArray(registrations.userId, userIds)),
      ),
  ])
  const held = new Map<number, Map<number, 'podmeister' | 'seat'>>()
  const mark = (userId: number, podclubId: number, role: 'podmeister' | 'seat') => {
    const own = held.get(userId) ?? new Map<number, 'podmeister' | 'seat'>()
    if (!own.has(podclubId)) own.set(podclubId, role)
    held.set(userId, own)
  }
  for (const h of hosting) mark(h.userId, h.podclubId, 'podmeister')
  for (const s of seats) mark(s.userId, s.podclubId, 'seat')
  return held
}

export const audienceFilter = (audience: Audience) =>
  and(
    isActiveAccount(),
    audience === 'superusers' ? eq(users.isSuperuser, true) : isNull(users.blastsUnsubscribedAt),
  )

/**
 * The test blast, queued while the operator waits: it goes to the super users, a handful of
 * rows, so the answer can say it was sent. The monthly blast is a job (`blasts.jobs.ts`).
 */
export async function sendTestBlast(deps: AppDeps, body: CreateBlastBody) {
  const list = await blastPodclubs(deps, body)
  return queueBlastMail(deps, list, 'superusers', clubMonthKey(deps.clock.now()))
}
