import { and, eq } from 'drizzle-orm'
import type { RegistrationState } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import type { Tx } from '../../db/client'
import { registrations, seatWaitlist } from '../../db/schema/index'
import { runOnce } from '../../db/idempotency'
import { transaction } from '../../db/transaction'
import { AppError } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { isOpenForSeats, readSeatsLeft } from '../podclubs/podclubs.rules'
import { lockForSeatChange, lockPodclub, refuse } from './seat-lock'
import { mailSeatChanges } from './seat-notify'
import { promoteFromSeatWaitlist } from './seat-waitlist.service'

const PODMEISTER_HAS_SEAT = 'The podmeister always has a seat and cannot register or cancel.'

/**
 * Writes the seat (the caller holds the podclub's lock and checked it is free of this member),
 * takes the member off the seat waitlist if they were on it, and mails the confirmation with the
 * calendar entry.
 */
async function insertSeat(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
  userId: number,
  left: number,
): Promise<RegistrationState> {
  if (left <= 0) throw new AppError('NO_SEATS_LEFT', 'No seats left')
  await tx.insert(registrations).values({ podclubId, userId })
  await tx
    .delete(seatWaitlist)
    .where(and(eq(seatWaitlist.podclubId, podclubId), eq(seatWaitlist.userId, userId)))
  await mailSeatChanges(tx, deps, podclubId, [{ userId, kind: 'confirmed' }])
  return { registered: true, seats_left: await readSeatsLeft(tx, podclubId) }
}

/**
 * Takes a seat when the member holds none, gives it back when they do (CONTRACT.md: one call
 * toggles). The podclub row is locked for the whole transaction, so the 10th reservation can
 * never be written. A seat given back goes, in the same transaction, to the first member on the
 * seat waitlist. A retry sent with the same `idempotencyKey` gets the first answer again and
 * changes nothing (see `runOnce`).
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
  return transaction(deps, (tx) =>
    runOnce(tx, call, () => toggleSeatIn(tx, deps, actor, podclubId)),
  )
}

async function toggleSeatIn(
  tx: Tx,
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
): Promise<RegistrationState> {
  const { podclub, held, left } = await lockForSeatChange(tx, deps, podclubId, actor.id)
  if (podclub.podmeisterId === actor.id) throw refuse(PODMEISTER_HAS_SEAT)
  if (!held) return insertSeat(tx, deps, podclub.id, actor.id, left)
  await giveBackSeat(tx, deps, podclub.id, actor.id, held.id)
  return { registered: false, seats_left: await readSeatsLeft(tx, podclub.id) }
}

/**
 * A seat given back, under the podclub's lock the caller holds (while seats are open): the
 * seat goes, its holder is mailed the cancellation, and the freed seat goes to the first member
 * on the seat waitlist, who is mailed too.
 */
async function giveBackSeat(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
  userId: number,
  seatId: number,
): Promise<void> {
  await tx.delete(registrations).where(eq(registrations.id, seatId))
  await mailSeatChanges(tx, deps, podclubId, [{ userId, kind: 'cancelled' }])
  await promoteFromSeatWaitlist(tx, deps, podclubId)
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
  const [held] = await tx
    .select({ id: registrations.id })
    .from(registrations)
    .where(and(eq(registrations.podclubId, podclubId), eq(registrations.userId, userId)))
  if (held) await giveBackSeat(tx, deps, podclubId, userId, held.id)
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
  return transaction(deps, async (tx) => {
    const { podclub, held, left } = await lockForSeatChange(tx, deps, podclubId, userId)
    if (podclub.podmeisterId === userId) throw refuse(PODMEISTER_HAS_SEAT)
    if (held) throw refuse('This member is already registered for this podclub.')
    return insertSeat(tx, deps, podclub.id, userId, left)
  })
}
