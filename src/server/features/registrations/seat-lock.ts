import { and, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podclubs, registrations } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { AppError, notFound } from '../../lib/app-error'
import { readSeatsLeft, whySeatsAreClosed } from '../podclubs/podclubs.rules'

export const refuse = (message: string) => new AppError('CONFLICT', message)

const CLOSED = {
  completed: 'This podclub has already taken place.',
  cancelled: 'This podclub has been cancelled.',
  started: 'This podclub has already started.',
} as const

/**
 * Locks the podclub row for the rest of the transaction and refuses any change of its seats or
 * seat waitlist once they are closed (unknown, over, cancelled or started). Requests for the same
 * podclub line up behind the lock, in this process or any other, so seat counts and waitlist
 * order read here stay true until the transaction ends. Says whether `userId` holds a seat, and
 * how many are left.
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
  const closed = whySeatsAreClosed(podclub, deps.clock.now())
  if (closed) throw refuse(CLOSED[closed])
  const mine = and(eq(registrations.podclubId, podclub.id), eq(registrations.userId, userId))
  const [held] = await tx.select({ id: registrations.id }).from(registrations).where(mine)
  const left = await readSeatsLeft(tx, podclub.id)
  return { podclub, held, left }
}
