import { and, eq, gt, lte, or, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podcasts, podclubs } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { enqueueMail } from '../mail/mail.service'
import { readParticipants } from '../podclubs/podclubs.rules'
import { type NoticeKind, reminderMail } from './reminders.mail'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** The three notices, nearest last: each is due from `before` ahead of the start. */
export const NOTICES = [
  { kind: '1w', before: 7 * DAY, flag: podclubs.oneWeekNoticeSent, field: 'oneWeekNoticeSent' },
  { kind: '1d', before: DAY, flag: podclubs.oneDayNoticeSent, field: 'oneDayNoticeSent' },
  { kind: '10m', before: 10 * MINUTE, flag: podclubs.tenMinNoticeSent, field: 'tenMinNoticeSent' },
] as const

type NoticeField = (typeof NOTICES)[number]['field']

/**
 * The notice flags to clear when a podclub moves to `startsAt`: each notice whose time at the
 * new date is still ahead goes out again then (its e-mails carry the new date, so the outbox's
 * dedupe key does not take them for the old ones). A notice already due at the new date stays
 * as it is: nothing is sent twice for it.
 */
export function noticesToRearm(startsAt: Date, now: Date): Partial<Record<NoticeField, false>> {
  const ahead = startsAt.getTime() - now.getTime()
  return Object.fromEntries(NOTICES.filter((n) => ahead > n.before).map((n) => [n.field, false]))
}

export type SentNotice = { podclubId: number; kind: NoticeKind; recipients: number }

/**
 * Claims the notice of a podclub and queues its e-mails, in one transaction: the flag goes from
 * false to true in the same statement that checks it, so of any number of processes (or a
 * scheduler and an operator's button) exactly one wins, and the outbox's dedupe key stands
 * behind it. Returns undefined when the notice was sent already or the podclub is not upcoming.
 */
async function claimNotice(
  deps: AppDeps,
  tx: Tx,
  podclubId: number,
  kind: NoticeKind,
  onlyIfDue: boolean,
): Promise<SentNotice | undefined> {
  const index = NOTICES.findIndex((n) => n.kind === kind)
  const notice = NOTICES[index]!
  const now = deps.clock.now().getTime()
  const window = and(
    lte(podclubs.startsAt, new Date(now + notice.before)),
    gt(podclubs.startsAt, new Date(now + (NOTICES[index + 1]?.before ?? 0))),
  )
  const [claimed] = await tx
    .update(podclubs)
    .set({ [notice.field]: true })
    .where(
      and(
        eq(podclubs.id, podclubId),
        eq(podclubs.status, 'upcoming'),
        eq(notice.flag, false),
        // The scheduler checks its window again under the row lock: an operator may have just
        // moved the podclub.
        onlyIfDue ? window : undefined,
      ),
    )
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
  await enqueueMail(
    tx,
    recipients.map((r) => reminderMail(podclub, kind, r, deps.env, deps.clock.now())),
  )
  return { podclubId, kind, recipients: recipients.length }
}

/** The operator's 'Send Notice' (10-minute notice now); false when it had been sent already. */
export async function sendNoticeNow(
  deps: AppDeps,
  podclubId: number,
  kind: NoticeKind,
): Promise<SentNotice | undefined> {
  return transaction(deps, (tx) => claimNotice(deps, tx, podclubId, kind, false))
}

/**
 * Sends every notice that is due, run by the scheduler in each process. Only the nearest due
 * notice of a podclub is considered: after downtime a podclub two hours away gets its 1-day
 * notice, never a stale 1-week one (which stays marked as not sent).
 */
export async function sendDueReminders(deps: AppDeps): Promise<SentNotice[]> {
  const now = deps.clock.now().getTime()
  const at = (ms: number) => new Date(now + ms)
  // The window of each notice: from its `before` down to the next nearer notice's.
  const windows: SQL[] = NOTICES.map((notice, i) => {
    const nearer = NOTICES[i + 1]
    return and(
      lte(podclubs.startsAt, at(notice.before)),
      gt(podclubs.startsAt, at(nearer ? nearer.before : 0)),
      eq(notice.flag, false),
    )!
  })
  const due = await deps.db
    .select({ id: podclubs.id, startsAt: podclubs.startsAt })
    .from(podclubs)
    .where(and(eq(podclubs.status, 'upcoming'), or(...windows)))
    .limit(500)
  const sent: SentNotice[] = []
  for (const podclub of due) {
    const ahead = podclub.startsAt.getTime() - now
    const notice = [...NOTICES].reverse().find((n) => ahead <= n.before)
    if (!notice) continue
    const result = await transaction(deps, (tx) =>
      claimNotice(deps, tx, podclub.id, notice.kind, true),
    )
    if (result) sent.push(result)
  }
  return sent
}
