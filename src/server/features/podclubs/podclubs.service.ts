import { eq, sql } from 'drizzle-orm'
import { CLUB_TIME_MESSAGES, isInFuture, prettyDate, prettyTime } from '#contract/club-time'
import type { PodclubLocation, PodclubStatus } from '#contract/podclubs'
import type { Tx } from '../../db/client'
import { podclubs } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, FieldErrors, notFound } from '../../lib/app-error'
import { mailSeatChanges } from '../registrations/seat-notify'
import { clearSeatWaitlist, promoteFromSeatWaitlist } from '../registrations/seat-waitlist.service'
import { noticesToRearm } from '../reminders/reminders.service'
import { hasStarted, isOpenForSeats, readParticipants } from './podclubs.rules'

/** What an operator may change about a podclub once it exists. */
export type PodclubEdit = {
  startsAt?: Date
  location?: PodclubLocation
  zoomLink?: string
  status?: PodclubStatus
}

type Before = { status: PodclubStatus; startsAt: Date; location: PodclubLocation | null }

/** What an edit changes, as the effects of `changePodclub` need it. */
export function whatChanged(before: Before, edit: PodclubEdit) {
  const status = edit.status ?? before.status
  const startsAt = edit.startsAt ?? before.startsAt
  const retimed = startsAt.getTime() !== before.startsAt.getTime()
  const replaced = edit.location !== undefined && edit.location !== before.location
  return {
    status,
    startsAt,
    retimed,
    /** The calendar entry's time or place is no longer what members hold. */
    moved: retimed || replaced,
    completedNow: status === 'completed' && before.status !== 'completed',
    cancelledNow: status === 'cancelled' && before.status !== 'cancelled',
  }
}

/** The refusal of a completion before the podclub has taken place. */
export function notStartedYet(startsAt: Date): AppError {
  return new AppError(
    'CONFLICT',
    `This podclub has not started yet: it can be completed from ${prettyDate(startsAt)} at ${prettyTime(startsAt)}.`,
  )
}

/**
 * The one way a podclub's date, place, Zoom link or status changes, with everything that follows
 * from it, in the caller's transaction:
 * - a completed podclub is one that has started (it then counts for cred and lists as past);
 * - a new date re-arms the reminders not yet due at it;
 * - a new time or place, or a cancellation, raises the calendar SEQUENCE and mails the
 *   podmeister and seat holders the replacement entry or the cancellation;
 * - an upcoming podclub fills free seats from its seat waitlist; one that is over or off loses
 *   its waitlist.
 * `onlyIfUpcoming` refuses a podclub that is already completed or cancelled ('Mark Complete').
 */
async function changePodclub(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
  edit: PodclubEdit,
  opts: { onlyIfUpcoming?: boolean } = {},
): Promise<void> {
  const now = deps.clock.now()
  // The row lock orders this change with seat changes of the same podclub (docs/decisions/009).
  const [before] = await tx
    .select({ status: podclubs.status, startsAt: podclubs.startsAt, location: podclubs.location })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
    .for('update')
  if (!before) throw notFound('podclub')
  if (opts.onlyIfUpcoming && before.status !== 'upcoming') {
    throw new AppError('CONFLICT', `This podclub is already ${before.status}.`)
  }
  if (edit.startsAt !== undefined && !isInFuture(edit.startsAt, now)) {
    throw new FieldErrors({ scheduledStart: [CLUB_TIME_MESSAGES.past] })
  }
  const change = whatChanged(before, edit)
  if (change.status === 'completed' && !hasStarted(change, now)) {
    if (!change.completedNow) {
      throw new AppError('CONFLICT', 'This podclub is completed: its date can no longer move.')
    }
    throw notStartedYet(change.startsAt)
  }

  await tx
    .update(podclubs)
    .set({
      ...edit,
      ...(change.completedNow ? { completedAt: now } : {}),
      ...(change.status !== 'completed' ? { completedAt: null } : {}),
      ...(change.retimed ? noticesToRearm(change.startsAt, now) : {}),
      ...(change.moved || change.cancelledNow
        ? { calendarSequence: sql`${podclubs.calendarSequence} + 1` }
        : {}),
    })
    .where(eq(podclubs.id, podclubId))

  const mail = change.cancelledNow
    ? ('podclub-cancelled' as const)
    : change.moved && change.status === 'upcoming'
      ? ('changed' as const)
      : null
  if (mail) {
    const participants = await readParticipants(tx, podclubId)
    await mailSeatChanges(
      tx,
      deps,
      podclubId,
      participants.map((p) => ({ to: p.id, kind: mail })),
    )
  }
  if (change.status === 'upcoming') await promoteFromSeatWaitlist(tx, deps, podclubId)
  else await clearSeatWaitlist(tx, podclubId)
}

/** 'Mark Complete': an upcoming podclub that has started becomes completed, once. */
export async function completePodclub(deps: AppDeps, podclubId: number): Promise<void> {
  await transaction(deps, (tx) =>
    changePodclub(tx, deps, podclubId, { status: 'completed' }, { onlyIfUpcoming: true }),
  )
}

/**
 * A podmeister leaving the club (the deletion of their account, in its transaction): their
 * podclub is cancelled if it has not started, as an operator's cancellation is, so its members
 * are mailed the cancellation and its waitlist goes. One that has started stays, to be completed.
 * Says whether it was cancelled.
 */
export async function cancelForLeavingPodmeister(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
): Promise<boolean> {
  const [podclub] = await tx
    .select({ status: podclubs.status, startsAt: podclubs.startsAt })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
    .for('update')
  if (!podclub || !isOpenForSeats(podclub, deps.clock.now())) return false
  await changePodclub(tx, deps, podclubId, { status: 'cancelled' })
  return true
}

/** An operator's change of date, location, Zoom link or status (see `changePodclub`). */
export async function editPodclub(
  deps: AppDeps,
  podclubId: number,
  edit: PodclubEdit,
): Promise<void> {
  await transaction(deps, (tx) => changePodclub(tx, deps, podclubId, edit))
}

/** Saves the Zoom chat log of a podclub (replacing any earlier one). */
export async function saveChatlog(
  deps: AppDeps,
  podclubId: number,
  chatlog: string,
): Promise<void> {
  await transaction(deps, async (tx) => {
    const [row] = await tx
      .update(podclubs)
      .set({ chatlog: chatlog.replace(/\r\n?/g, '\n') })
      .where(eq(podclubs.id, podclubId))
      .returning({ id: podclubs.id })
    if (!row) throw notFound('podclub')
  })
}
