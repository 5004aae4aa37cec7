import { and, eq } from 'drizzle-orm'
import type { RegistrationState } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import type { Tx } from '../../db/client'
import { registrations, seatWaitlist } from '../../db/schema/index'
import { runOnce } from '../../db/idempotency'
import { transaction } from '../../db/transaction'
import { AppError } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import type { CalendarPodclub } from '../calendar/calendar.ics'
import { isOpenForSeats } from '../podclubs/podclubs.rules'
import {
  inSeatLine,
  lockForSeatChange,
  lockPodclub,
  readSeatsOf,
  refuse,
  type SeatMember,
} from './seat-lock'
import { mailSeatChanges } from './seat-notify'
import { moveUpSeatWaitlist } from './seat-waitlist.service'

const PODMEISTER_HAS_SEAT = 'The podmeister always has a seat and cannot register or cancel.'

/**
 * Writes the seat (the caller holds the podclub's lock, read `left` after it and checked the
 * member holds none), takes the member off the seat waitlist if they were on it, and mails the
 * confirmation with the calendar entry.
 */
async function insertSeat(
  tx: Tx,
  deps: AppDeps,
  podclub: CalendarPodclub,
  member: SeatMember,
  { left, waiting }: { left: number; waiting: boolean },
): Promise<RegistrationState> {
  if (left <= 0) throw new AppError('NO_SEATS_LEFT', 'No seats left')
  await tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
  if (waiting) {
    await tx
      .delete(seatWaitlist)
      .where(and(eq(seatWaitlist.podclubId, podclub.id), eq(seatWaitlist.userId, member.id)))
  }
  await mailSeatChanges(tx, deps, podclub, [{ to: member, kind: 'confirmed' }])
  return { registered: true, seats_left: left - 1 }
}

/**
 * Takes a seat when the member holds none, gives it back when they do (CONTRACT.md: one call
 * toggles). The podclub row is locked for the whole transaction, so the 10th reservation can
 * never be written. A seat given back goes, in the same transaction, to the first member on the
 * seat waitlist. A retry sent with the same `idempotencyKey` gets the first answer again and
 * changes nothing (see `runOnce`). This process's seat changes of one podclub take their turns
 * before they start (`inSeatLine`).
 */
export async function toggleSeat(
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
  idempotencyKey?: string,
): Promise<RegistrationState> {
  const call = {
    userId: actor.id,
    scope: `register:${podclubId}`,
    key: idempotencyKey,
    now: deps.clock.now(),
  }
  return inSeatLine(deps.db, podclubId, () =>
    transaction(deps, (tx) => runOnce(tx, call, () => toggleSeatIn(tx, deps, actor, podclubId))),
  )
}

async function toggleSeatIn(
  tx: Tx,
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
): Promise<RegistrationState> {
  const { member, podclub, held, ...seats } = await lockForSeatChange(tx, deps, podclubId, actor.id)
  if (podclub.podmeisterId === actor.id) throw refuse(PODMEISTER_HAS_SEAT)
  if (held === null) return insertSeat(tx, deps, podclub, member, seats)
  const left = await giveBackSeat(tx, deps, podclub, member, held, seats.left)
  return { registered: false, seats_left: left }
}

/**
 * A seat given back, under the podclub's lock the caller holds while its seats are open, `left`
 * read after it: the seat goes, the freed seat goes to the first member on the seat waitlist, and
 * both are mailed, the holder the cancellation. Answers the seats left.
 */
async function giveBackSeat(
  tx: Tx,
  deps: AppDeps,
  podclub: CalendarPodclub,
  holder: number | SeatMember,
  seatId: number,
  left: number,
): Promise<number> {
  await tx.delete(registrations).where(eq(registrations.id, seatId))
  const promoted = await moveUpSeatWaitlist(tx, podclub.id, left + 1)
  await mailSeatChanges(tx, deps, podclub, [
    { to: holder, kind: 'cancelled' },
    ...promoted.map((userId) => ({ to: userId, kind: 'promoted' as const })),
  ])
  return left + 1 - promoted.length
}

/**
 * A member leaving the club (the deletion of their account, which holds their row): locks the
 * podclub, takes them off its seat waitlist and, while its seats are open, gives back the seat
 * they hold as their own cancel would, promotion and e-mails included. A seat in a podclub that
 * has started or is over stays: it records who took part.
 */
export async function leaveSeatAndWaitlist(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
  userId: number,
): Promise<void> {
  const podclub = await lockPodclub(tx, podclubId)
  if (!podclub) return
  await tx
    .delete(seatWaitlist)
    .where(and(eq(seatWaitlist.podclubId, podclubId), eq(seatWaitlist.userId, userId)))
  if (!isOpenForSeats(podclub, deps.clock.now())) return
  // Read after the lock, as its own statement: a seat taken just before it is seen.
  const { held, left } = await readSeatsOf(tx, podclubId, userId)
  if (held !== null) await giveBackSeat(tx, deps, podclub, userId, held, left)
}

/**
 * An operator's quick registration (spec 2 §7): takes a seat for `userId` under the same rules
 * and the same lock as the member's toggle, but never gives one back.
 */
export async function takeSeatFor(
  deps: AppDeps,
  podclubId: number,
  userId: number,
): Promise<RegistrationState> {
  return inSeatLine(deps.db, podclubId, () =>
    transaction(deps, async (tx) => {
      const { member, podclub, held, ...seats } = await lockForSeatChange(
        tx,
        deps,
        podclubId,
        userId,
      )
      if (podclub.podmeisterId === userId) throw refuse(PODMEISTER_HAS_SEAT)
      if (held !== null) throw refuse('This member is already registered for this podclub.')
      return insertSeat(tx, deps, podclub, member, seats)
    }),
  )
}
