import { and, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, users } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { AppError, notFound } from '../../lib/app-error'
import { isActiveAccount } from '../accounts/accounts.rules'
import { CALENDAR_PODCLUB_COLUMNS } from '../calendar/calendar.service'
import {
  onSeatWaitlist,
  seatHeldBy,
  seatsLeft,
  whySeatsAreClosed,
} from '../podclubs/podclubs.rules'

export const refuse = (message: string) => new AppError('CONFLICT', message)

const CLOSED = {
  completed: 'This podclub has already taken place.',
  cancelled: 'This podclub has been cancelled.',
  started: 'This podclub has already started.',
} as const

/** A member whose seat changes, as the seat e-mails address them. */
export type SeatMember = { id: number; username: string; email: string }

/**
 * How many of this process's seat changes of one podclub may be under way at once: one holding
 * the podclub's lock and one waiting for it, which takes it as soon as it is free.
 */
export const SEAT_CHANGES_UNDER_WAY = 2

type Line = { underWay: number; waiting: (() => void)[] }

/** This process's seat changes of each podclub, per database handle (not per module). */
const lines = new WeakMap<Db, Map<number, Line>>()

/**
 * Runs `work` (a seat change of one podclub, its whole transaction) once fewer than
 * `SEAT_CHANGES_UNDER_WAY` of this process's seat changes of that podclub are under way, in the
 * order they came. They would wait for each other at the podclub's lock anyway; waiting there,
 * each holds one of the pool's connections, and with a few podclubs in a rush every connection
 * of the pool waits on a lock while the reads of every other request wait for a connection.
 * Waiting here holds nothing. Other processes still line up at the lock.
 */
export async function inSeatLine<T>(db: Db, podclubId: number, work: () => Promise<T>): Promise<T> {
  const byPodclub = lines.get(db) ?? new Map<number, Line>()
  lines.set(db, byPodclub)
  const line = byPodclub.get(podclubId) ?? { underWay: 0, waiting: [] }
  byPodclub.set(podclubId, line)
  if (line.underWay >= SEAT_CHANGES_UNDER_WAY)
    await new Promise<void>((resolve) => line.waiting.push(resolve))
  else line.underWay += 1
  try {
    return await work()
  } finally {
    const next = line.waiting.shift()
    if (next) next()
    else if (--line.underWay === 0) byPodclub.delete(podclubId)
  }
}

/**
 * Locks the podclub row for the rest of the transaction and refuses any change of its seats or
 * seat waitlist once they are closed (unknown, over, cancelled or started). Requests for the same
 * podclub line up behind the lock, in this process or any other, so seat counts and waitlist
 * order read here stay true until the transaction ends. Says who the member is, the seat they
 * hold, whether they wait for one, and how many are left.
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
  const member = await lockMember(tx, userId)
  const podclub = await lockPodclub(tx, podclubId)
  if (!podclub) throw notFound('Podclub')
  const closed = whySeatsAreClosed(podclub, deps.clock.now())
  if (closed) throw refuse(CLOSED[closed])
  return { member, podclub, ...(await readSeatsOf(tx, podclub.id, userId)) }
}

/**
 * The seat `userId` holds in the podclub (its id, or null), whether they are on its seat
 * waitlist, and the free seats, in one statement. Under the seat lock, call it as its own
 * statement after taking the lock (see `readSeatsLeft`).
 */
export async function readSeatsOf(tx: Tx, podclubId: number, userId: number) {
  const [state] = await tx
    .select({ held: seatHeldBy(userId), waiting: onSeatWaitlist(userId), left: seatsLeft() })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  return state ?? { held: null, waiting: false, left: 0 }
}

/**
 * Locks the podclub's row for the rest of the transaction: what seat rules read of it, and what
 * the seat e-mails' calendar entry shows, read with the lock (one statement).
 */
export async function lockPodclub(tx: Tx, podclubId: number) {
  const [podclub] = await tx
    .select({ ...CALENDAR_PODCLUB_COLUMNS, podmeisterId: podclubs.podmeisterId })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .where(eq(podclubs.id, podclubId))
    .for('update', { of: podclubs })
  return podclub
}

/**
 * Holds the member's row for the rest of the transaction (a share lock, taken before any
 * podclub's lock, in the order a deletion takes them) and refuses an account that was deleted.
 */
async function lockMember(tx: Tx, userId: number): Promise<SeatMember> {
  const [member] = await tx
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), isActiveAccount()))
    .for('share')
  if (!member) throw notFound('Member')
  return member
}
