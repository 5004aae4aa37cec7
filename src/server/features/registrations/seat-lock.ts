import { and, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podclubs, registrations, users } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { AppError, notFound } from '../../lib/app-error'
import { isActiveAccount } from '../accounts/accounts.rules'
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
 *
 * The member's own row is share-locked first (`lockMember`): a deletion of their account, which
 * holds that row while it gives back their seats, and a seat change for them take turns, so no
 * seat is ever left to a deleted account.
 */
export async function lockForSeatChange(
  tx: Tx,
  deps: Pick<AppDeps, 'clock'>,
  podclubId: number,
  userId: number,
) {
  await lockMember(tx, userId)
  const podclub = await lockPodclub(tx, podclubId)
  if (!podclub) throw notFound('Podclub')
  const closed = whySeatsAreClosed(podclub, deps.clock.now())
  if (closed) throw refuse(CLOSED[closed])
  const mine = and(eq(registrations.podclubId, podclub.id), eq(registrations.userId, userId))
  const [held] = await tx.select({ id: registrations.id }).from(registrations).where(mine)
  const left = await readSeatsLeft(tx, podclub.id)
  return { podclub, held, left }
}

/** Locks the podclub's row for the rest of the transaction: what seat rules read of it. */
export async function lockPodclub(tx: Tx, podclubId: number) {
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
  return podclub
}

/**
 * Holds the member's row for the rest of the transaction (a share lock, taken before any
 * podclub's lock, in the order a deletion takes them) and refuses an account that was deleted.
 */
async function lockMember(tx: Tx, userId: number): Promise<void> {
  const [member] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isActiveAccount()))
    .for('share')
  if (!member) throw notFound('Member')
}
