import { and, count, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podclubs, registrations } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { AppError, notFound } from '../../lib/app-error'

export const refuse = (message: string) => new AppError('CONFLICT', message)

/**
 * Locks the podclub row for the rest of the transaction and refuses any change of its seats or
 * seat waitlist when it is unknown, over, cancelled or started. Requests for the same podclub
 * line up behind the lock, in this process or any other, so seat counts and waitlist order read
 * here stay true until the transaction ends. Says whether `userId` holds a seat, and how many are
 * taken.
 */
export async function lockForSeatChange(
  tx: Tx,
  deps: Pick<AppDeps, 'clock'>,
  podclubId: number,
  userId: number,
) {
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
  const mine = and(eq(registrations.podclubId, podclub.id), eq(registrations.userId, userId))
  const [held] = await tx.select({ id: registrations.id }).from(registrations).where(mine)
  const taken = await seatsTaken(tx, podclub.id)
  return { podclub, held, taken }
}

export async function seatsTaken(tx: Tx, podclubId: number): Promise<number> {
  const [{ taken } = { taken: 0 }] = await tx
    .select({ taken: count() })
    .from(registrations)
    .where(eq(registrations.podclubId, podclubId))
  return taken
}
