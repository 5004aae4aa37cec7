import { and, asc, count, eq, inArray, lte } from 'drizzle-orm'
import type { SeatWaitlistState } from '#contract/podclubs'
import type { Tx } from '../../db/client'
import { podclubs, registrations, seatWaitlist } from '../../db/schema/index'
import { runOnce } from '../../db/idempotency'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import type { AuthUser } from '../../plugins/session'
import { isOpenForSeats, readSeatsLeft } from '../podclubs/podclubs.rules'
import { inSeatLine, lockForSeatChange, refuse } from './seat-lock'
import { mailSeatChanges } from './seat-notify'

async function positionOf(tx: Tx, podclubId: number, entryId: number): Promise<number> {
  const [{ ahead } = { ahead: 1 }] = await tx
    .select({ ahead: count() })
    .from(seatWaitlist)
    .where(and(eq(seatWaitlist.podclubId, podclubId), lte(seatWaitlist.id, entryId)))
  return ahead
}

/**
 * Joins or leaves the seat waitlist of a full podclub (CONTRACT.md, beyond the spec). Only for
 * members without a seat who don't host it, while no seat is free (a free seat is taken with the
 * register call instead) and before the podclub starts. A retry sent with the same
 * `idempotencyKey` gets the first answer again and changes nothing (see `runOnce`).
 */
export async function toggleSeatWaitlist(
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
  idempotencyKey?: string,
): Promise<SeatWaitlistState> {
  const call = {
    userId: actor.id,
    scope: `seat-waitlist:${podclubId}`,
    key: idempotencyKey,
    now: deps.clock.now(),
  }
  return inSeatLine(deps.db, podclubId, () =>
    transaction(deps, (tx) =>
      runOnce(tx, call, () => toggleSeatWaitlistIn(tx, deps, actor, podclubId)),
    ),
  )
}

async function toggleSeatWaitlistIn(
  tx: Tx,
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
): Promise<SeatWaitlistState> {
  const { podclub, held, waiting, left } = await lockForSeatChange(tx, deps, podclubId, actor.id)
  if (podclub.podmeisterId === actor.id) {
    throw refuse('The podmeister always has a seat and cannot join the seat waitlist.')
  }
  if (held) throw refuse('You already have a seat at this podclub.')
  if (waiting) {
    const mine = and(eq(seatWaitlist.podclubId, podclub.id), eq(seatWaitlist.userId, actor.id))
    await tx.delete(seatWaitlist).where(mine)
    return { waitlisted: false, position: null }
  }
  if (left > 0) {
    throw refuse('A seat is free: register for it instead of joining the seat waitlist.')
  }
  const [entry] = await tx
    .insert(seatWaitlist)
    .values({ podclubId: podclub.id, userId: actor.id })
    .returning({ id: seatWaitlist.id })
  return { waitlisted: true, position: await positionOf(tx, podclub.id, entry!.id) }
}

/**
 * Gives freed seats to the first members in line, in the caller's transaction, which must hold
 * the podclub's row lock (`lockForSeatChange`, or an UPDATE of the row). Only while the podclub is
 * upcoming and has not started. Each promoted member leaves the waitlist, takes a seat and is
 * mailed 'You're in' with the calendar entry. Returns the promoted members' ids, first first.
 */
export async function promoteFromSeatWaitlist(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
): Promise<number[]> {
  const [podclub] = await tx
    .select({ status: podclubs.status, startsAt: podclubs.startsAt })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  if (!podclub || !isOpenForSeats(podclub, deps.clock.now())) return []

  const promoted = await moveUpSeatWaitlist(tx, podclubId, await readSeatsLeft(tx, podclubId))
  await mailSeatChanges(
    tx,
    deps,
    podclubId,
    promoted.map((userId) => ({ to: userId, kind: 'promoted' as const })),
  )
  return promoted
}

/**
 * Gives `free` seats to the first members in line, without mailing them, under the podclub's
 * lock the caller holds while its seats are open: each leaves the waitlist and takes a seat.
 * Returns their ids, first first.
 */
export async function moveUpSeatWaitlist(
  tx: Tx,
  podclubId: number,
  free: number,
): Promise<number[]> {
  if (free <= 0) return []
  const next = await tx
    .select({ id: seatWaitlist.id, userId: seatWaitlist.userId })
    .from(seatWaitlist)
    .where(eq(seatWaitlist.podclubId, podclubId))
    .orderBy(asc(seatWaitlist.id))
    .limit(free)
  if (next.length === 0) return []
  await tx.delete(seatWaitlist).where(
    inArray(
      seatWaitlist.id,
      next.map((e) => e.id),
    ),
  )
  // In line order: the seat's id and time say who came first.
  await tx
    .insert(registrations)
    .values(next.map((e) => ({ podclubId, userId: e.userId, fromSeatWaitlist: true })))
  return next.map((e) => e.userId)
}

/** A completed or cancelled podclub has no seats to wait for: its waitlist goes. */
export async function clearSeatWaitlist(tx: Tx, podclubId: number): Promise<void> {
  await tx.delete(seatWaitlist).where(eq(seatWaitlist.podclubId, podclubId))
}
