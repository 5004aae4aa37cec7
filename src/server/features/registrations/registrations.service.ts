import { and, count, eq } from 'drizzle-orm'
import { SEATS_PER_PODCLUB, type RegistrationState } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import type { Tx } from '../../db/client'
import { podclubs, registrations } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { AppError, notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { bumpPodclubsVersion } from '../podclubs/podclubs.version'

const refuse = (message: string) => new AppError('CONFLICT', message, 409)

/**
 * Locks the podclub row for the rest of the transaction and refuses a seat change for `userId`
 * when the podclub is unknown, over, cancelled or started, or when they are its podmeister.
 * Requests for the same podclub line up behind the lock, in this process or any other.
 */
async function lockForSeatChange(tx: Tx, deps: AppDeps, podclubId: number, userId: number) {
  const [podclub] = await tx
    .select({
      id: podclubs.id,
      status: podclubs.status,
      startsAt: podclubs.startsAt,
      podmeisterId: podclubs.podmeisterId,
    })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
    .for('update')
  if (!podclub) throw notFound('Podclub')
  if (podclub.status === 'completed') throw refuse('This podclub has already taken place.')
  if (podclub.status === 'cancelled') throw refuse('This podclub has been cancelled.')
  if (podclub.startsAt.getTime() <= deps.clock.now().getTime()) {
    throw refuse('This podclub has already started.')
  }
  if (podclub.podmeisterId === userId) {
    throw refuse('The podmeister always has a seat and cannot register or cancel.')
  }
  const mine = and(eq(registrations.podclubId, podclub.id), eq(registrations.userId, userId))
  const [held] = await tx.select({ id: registrations.id }).from(registrations).where(mine)
  const [{ taken } = { taken: 0 }] = await tx
    .select({ taken: count() })
    .from(registrations)
    .where(eq(registrations.podclubId, podclub.id))
  return { podclub, held, taken }
}

async function insertSeat(tx: Tx, podclubId: number, userId: number, taken: number) {
  if (taken >= SEATS_PER_PODCLUB) throw new AppError('NO_SEATS_LEFT', 'No seats left', 409)
  await tx.insert(registrations).values({ podclubId, userId })
  await bumpPodclubsVersion(tx)
  return { registered: true, seats_left: SEATS_PER_PODCLUB - (taken + 1) }
}

/**
 * Takes a seat when the member holds none, gives it back when they do (CONTRACT.md: one call
 * toggles). The podclub row is locked for the whole transaction, so the 10th reservation can
 * never be written.
 */
export async function toggleSeat(
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
): Promise<RegistrationState> {
  return transaction(deps, async (tx) => {
    const { podclub, held, taken } = await lockForSeatChange(tx, deps, podclubId, actor.id)
    if (held) {
      await tx.delete(registrations).where(eq(registrations.id, held.id))
      await bumpPodclubsVersion(tx)
      return { registered: false, seats_left: SEATS_PER_PODCLUB - (taken - 1) }
    }
    return insertSeat(tx, podclub.id, actor.id, taken)
  })
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
    const { podclub, held, taken } = await lockForSeatChange(tx, deps, podclubId, userId)
    if (held) throw refuse('This member is already registered for this podclub.')
    return insertSeat(tx, podclub.id, userId, taken)
  })
}
