import { and, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm'
import { mediumClubDateTime } from '#contract/club-time'
import { noticeNeedsConfirm, noticeSummary, REMINDERS } from '#contract/control-panel'
import type { Tx } from '../../db/client'
import { podcasts, podclubs } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, notFound } from '../../lib/app-error'
import { enqueueMail } from '../mail/mail.service'
import { readParticipants } from '../podclubs/podclubs.rules'
import { type NoticeKind, reminderMail } from './reminders.mail'

/** The three notices, nearest last: each is due from `before` ahead of the start. */
export const NOTICES = [
  { ...REMINDERS[0], flag: podclubs.oneWeekNoticeSent, field: 'oneWeekNoticeSent' },
  { ...REMINDERS[1], flag: podclubs.oneDayNoticeSent, field: 'oneDayNoticeSent' },
  { ...REMINDERS[2], flag: podclubs.tenMinNoticeSent, field: 'tenMinNoticeSent' },
] as const

type NoticeField = (typeof NOTICES)[number]['field']

/**
 * The notice flags to clear when a podclub moves to `startsAt`: each notice whose time at the
 * new date is still ahead goes out again then (its e-mails carry the new date, so the outbox's
 * dedupe key does not take them for the old ones). A notice already due at the new date stays
 * as it is: nothing is sent twice for it. A notice sent by hand was about the old date.
 */
export function noticesToRearm(
  startsAt: Date,
  now: Date,
): Partial<Record<NoticeField, false>> & { manualNoticeSentAt: null } {
  const ahead = startsAt.getTime() - now.getTime()
  return {
    ...Object.fromEntries(NOTICES.filter((n) => ahead > n.before).map((n) => [n.field, false])),
    manualNoticeSentAt: null,
  }
}

/**
 * The reminder whose place a notice sent `ahead` of the start takes: the nearest one whose moment
 * has come (-1 while even the one-week moment is ahead).
 */
function slotAt(ahead: number): number {
  return NOTICES.findLastIndex((n) => ahead <= n.before)
}

/**
 * SQL condition on a row of `podclubs`: the automatic notice at `index` may still go out. Not
 * when it went already, nor when a nearer one did (after it, the farther one would come late
 * and out of order), nor when an operator sent the notice by hand after its moment.
 */
function stillToSend(index: number): SQL {
  const notice = NOTICES[index]!
  const seconds = notice.before / 1000
  return and(
    ...NOTICES.slice(index).map((n) => eq(n.flag, false)),
    or(
      isNull(podclubs.manualNoticeSentAt),
      sql`${podclubs.manualNoticeSentAt} < ${podclubs.startsAt} - interval '${sql.raw(String(seconds))} seconds'`,
    ),
  )!
}

export type SentNotice = { podclubId: number; kind: NoticeKind; recipients: number }

/**
 * Claims a notice of a podclub and queues its e-mails, in one transaction: the claim (`set`
 * under `where`) is one statement that checks and marks, so of any number of processes (or a
 * scheduler and an operator's button) exactly one wins, and the outbox's dedupe key stands
 * behind it. Returns undefined when `where` no longer holds or the podclub is not upcoming.
 */
async function claimNotice(
  deps: AppDeps,
  tx: Tx,
  podclubId: number,
  kind: NoticeKind,
  claim: { set: Partial<typeof podclubs.$inferInsert>; where?: SQL | undefined },
): Promise<SentNotice | undefined> {
  const [claimed] = await tx
    .update(podclubs)
    .set(claim.set)
    .where(and(eq(podclubs.id, podclubId), eq(podclubs.status, 'upcoming'), claim.where))
    .returning()
  if (!claimed) return undefined
  const [podcast] = await tx
    .select({ name: podcasts.name })
    .from(podcasts)
    .where(eq(podcasts.id, claimed.podcastId))
  // A member who deleted their account has no address left.
  const recipients = (await readParticipants(tx, podclubId)).filter((p) => !p.isFormerMember)
  const podclub = {
    id: claimed.id,
    episodeTitle: claimed.episodeTitle,
    podcastName: podcast?.name ?? '',
    startsAt: claimed.startsAt,
    location: claimed.location,
    zoomLink: claimed.zoomLink,
  }
  const now = deps.clock.now()
  const slot = NOTICES[slotAt(claimed.startsAt.getTime() - now.getTime())]
  await enqueueMail(
    tx,
    recipients.map((r) =>
      reminderMail(podclub, kind, r, deps.env, now, {
        // The link is promised only while the 10-minute reminder is still to come.
        tenMinuteToCome: !claimed.tenMinNoticeSent,
        slot: slot?.kind ?? 'early',
      }),
    ),
  )
  return { podclubId, kind, recipients: recipients.length }
}

/**
 * The operator's 'Send Notice': the notice with the Zoom link (or the office address), now.
 * - Within the 10-minute window it is the 10-minute reminder, once: a second press is refused.
 * - Earlier it is a notice of its own that says the time actually left, once per reminder moment
 *   it falls after; it takes the place of the reminders whose moment has come (they are not sent
 *   after it), and those still ahead go out on time, the 10-minute one included.
 * - More than an hour ahead it goes only with `confirm`: unconfirmed, the refusal says what it
 *   would send.
 */
export async function sendManualNotice(
  deps: AppDeps,
  podclubId: number,
  opts: { confirm?: boolean | undefined } = {},
): Promise<SentNotice> {
  return transaction(deps, async (tx) => {
    // The row lock orders this with a scheduler claiming the same podclub's notice.
    const [podclub] = await tx
      .select({
        status: podclubs.status,
        startsAt: podclubs.startsAt,
        location: podclubs.location,
        manualNoticeSentAt: podclubs.manualNoticeSentAt,
      })
      .from(podclubs)
      .where(eq(podclubs.id, podclubId))
      .for('update')
    if (!podclub) throw notFound('podclub')
    if (podclub.status !== 'upcoming')
      throw new AppError('BAD_REQUEST', `This podclub is ${podclub.status}: no notice to send.`)
    const now = deps.clock.now()
    if (noticeNeedsConfirm(podclub.startsAt, now) && !opts.confirm) {
      throw new AppError('CONFLICT', `${noticeSummary(podclub, now)} Confirm to send it.`)
    }
    const slot = slotAt(podclub.startsAt.getTime() - now.getTime())
    const tenMinute = NOTICES.length - 1
    if (slot === tenMinute) {
      const sent = await claimNotice(deps, tx, podclubId, '10m', {
        set: { tenMinNoticeSent: true, manualNoticeSentAt: now },
        where: eq(podclubs.tenMinNoticeSent, false),
      })
      if (!sent) throw new AppError('CONFLICT', 'The 10-minute notice was already sent.')
      return sent
    }
    const before = podclub.manualNoticeSentAt
    if (before && slotAt(podclub.startsAt.getTime() - before.getTime()) === slot) {
      throw new AppError(
        'CONFLICT',
        `The notice was already sent on ${mediumClubDateTime(before)}; the ${NOTICES[slot + 1]!.name} reminder goes out on time.`,
      )
    }
    const sent = await claimNotice(deps, tx, podclubId, 'notice', {
      set: { manualNoticeSentAt: now },
    })
    if (!sent) throw notFound('podclub')
    return sent
  })
}

/**
 * Sends every notice that is due, run by the scheduler in each process. Only the nearest due
 * notice of a podclub is considered: after downtime a podclub two hours away gets its 1-day
 * notice, never a stale 1-week one (which stays marked as not sent). A notice is not sent after
 * a nearer one, nor after an operator's notice sent after its moment (`stillToSend`).
 */
export async function sendDueReminders(deps: AppDeps): Promise<SentNotice[]> {
  const now = deps.clock.now().getTime()
  // The window of each notice at `now`: from its `before` down to the next nearer notice's.
  const windowOf = (i: number, now: number) =>
    and(
      lte(podclubs.startsAt, new Date(now + NOTICES[i]!.before)),
      gt(podclubs.startsAt, new Date(now + (NOTICES[i + 1]?.before ?? 0))),
    )!
  const due = await deps.db
    .select({ id: podclubs.id, startsAt: podclubs.startsAt })
    .from(podclubs)
    .where(
      and(
        eq(podclubs.status, 'upcoming'),
        or(...NOTICES.map((_, i) => and(windowOf(i, now), stillToSend(i)))),
      ),
    )
    .limit(500)
  const sent: SentNotice[] = []
  for (const podclub of due) {
    const index = slotAt(podclub.startsAt.getTime() - now)
    const notice = NOTICES[index]
    if (!notice) continue
    const result = await transaction(deps, (tx) =>
      claimNotice(deps, tx, podclub.id, notice.kind, {
        set: { [notice.field]: true },
        // Checked again under the row lock: an operator may have just moved the podclub, or
        // sent the notice by hand.
        where: and(windowOf(index, deps.clock.now().getTime()), stillToSend(index)),
      }),
    )
    if (result) sent.push(result)
  }
  return sent
}
