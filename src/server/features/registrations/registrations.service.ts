import { and, count, eq } from 'drizzle-orm'
import { SEATS_PER_PODCLUB, type RegistrationState } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { podclubs, registrations } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { AppError, notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { bumpPodclubsVersion } from '../podclubs/podclubs.version'

const refuse = (message: string) => new AppError('CONFLICT', message, 409)

/**
 * Takes a seat when the member holds none, gives it back when they do (CONTRACT.md: one call
 * toggles). The podclub row is locked for the whole transaction, so requests for the same
 * podclub line up, in this process or any other, and the 10th reservation can never be written.
 */
export async function toggleSeat(
  deps: AppDeps,
  actor: AuthUser,
  podclubId: number,
): Promise<RegistrationState> {
  return transaction(deps, async (tx) => {
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
    if (podclub.podmeisterId === actor.id) {
      throw refuse('The podmeister always has a seat and cannot register or cancel.')
    }

    const mine = and(eq(registrations.podclubId, podclub.id), eq(registrations.userId, actor.id))
    const [held] = await tx.select({ id: registrations.id }).from(registrations).where(mine)
    const [{ taken } = { taken: 0 }] = await tx
      .select({ taken: count() })
      .from(registrations)
      .where(eq(registrations.podclubId, podclub.id))

    if (held) {
      await tx.delete(registrations).where(eq(registrations.id, held.id))
      await bumpPodclubsVersion(tx)
      return { registered: false, seats_left: SEATS_PER_PODCLUB - (taken - 1) }
    }
    if (taken >= SEATS_PER_PODCLUB) throw new AppError('NO_SEATS_LEFT', 'No seats left', 409)
    await tx.insert(registrations).values({ podclubId: podclub.id, userId: actor.id })
    await bumpPodclubsVersion(tx)
    return { registered: true, seats_left: SEATS_PER_PODCLUB - (taken + 1) }
  })
}
