import { and, asc, desc, eq, getTableName, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { SEATS_PER_PODCLUB, type PodclubStatus } from '#contract/podclubs'
import type { Db, Tx } from '../../db/client'
import { podclubs, registrations, seatWaitlist, users } from '../../db/schema/index'

// The rules every feature reads a podclub by: who takes part in it, whether its seats can still
// change, and how many are left. Each is written here once; the features that need one import
// it instead of restating it.

/**
 * A column written with its table's name, whatever the query around it: Drizzle leaves columns
 * of a one-table query unqualified in the select list, where inside a subquery on
 * `registrations` a bare "id" would be the registration's.
 */
function col(column: AnyPgColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`
}

// ---------------------------------------------------------------------------------------------
// Who takes part: the podmeister, and every member holding one of its seats.

/**
 * SQL condition on a row of `podclubs`: `userId` takes part in that podclub, as its podmeister or
 * holding one of its seats. `userId` may be a column (`users.id`) of an outer query.
 */
export function takesPart(userId: number | SQLWrapper): SQL {
  return sql`(${col(podclubs.podmeisterId)} = ${userId} or exists (select 1 from ${registrations} where ${col(registrations.podclubId)} = ${col(podclubs.id)} and ${col(registrations.userId)} = ${userId}))`
}

/** Whether `userId` takes part in the podclub (false for an unknown podclub). */
export async function isParticipant(
  db: Pick<Db, 'select'> | Tx,
  podclubId: number,
  userId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: podclubs.id })
    .from(podclubs)
    .where(and(eq(podclubs.id, podclubId), takesPart(userId)))
  return !!row
}

/** SQL column for a query on `podclubs`: how many take part in it, its podmeister included. */
export function participantCount(): SQL<number> {
  return sql<number>`(1 + (select count(*) from ${registrations} where ${col(registrations.podclubId)} = ${col(podclubs.id)} and ${col(registrations.userId)} <> ${col(podclubs.podmeisterId)}))::int`.mapWith(
    Number,
  )
}

export type Participant = {
  id: number
  username: string
  email: string
  isPodmeister: boolean
  /** A member who deleted their account: named 'a former member', with no address to mail. */
  isFormerMember: boolean
}

/**
 * Who takes part in a podclub, each once: its podmeister first, then the seat holders in the
 * order they took their seats. Empty for an unknown podclub.
 */
export async function readParticipants(db: Db | Tx, podclubId: number): Promise<Participant[]> {
  const host = db
    .select({
      userId: sql<number>`${podclubs.podmeisterId}`.as('user_id'),
      isPodmeister: sql<boolean>`true`.as('is_podmeister'),
      seatAt: sql<Date | null>`null::timestamptz`.as('seat_at'),
      seatId: sql<number>`0`.as('seat_id'),
    })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  const seated = db
    .select({
      userId: sql<number>`${registrations.userId}`.as('user_id'),
      isPodmeister: sql<boolean>`false`.as('is_podmeister'),
      seatAt: sql<Date | null>`${registrations.createdAt}`.as('seat_at'),
      seatId: sql<number>`${registrations.id}`.as('seat_id'),
    })
    .from(registrations)
    .where(eq(registrations.podclubId, podclubId))
  const taking = host.unionAll(seated).as('taking')
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      isPodmeister: taking.isPodmeister,
      isFormerMember: sql<boolean>`${users.deletedAt} is not null`,
    })
    .from(taking)
    .innerJoin(users, eq(users.id, taking.userId))
    .orderBy(desc(taking.isPodmeister), asc(taking.seatAt), asc(taking.seatId))
  // A podmeister never takes a seat of their own podclub; should a row say so, they count once.
  const seen = new Set<number>()
  return rows.filter((row) => !seen.has(row.id) && !!seen.add(row.id))
}

// ---------------------------------------------------------------------------------------------
// Whether seats are open: taking or giving back a seat, and the seat waitlist, only while the
// podclub is upcoming and has not started.

type Timed = { status: PodclubStatus; startsAt: Date }

/** Whether the podclub's start time has come. */
export function hasStarted(podclub: Pick<Timed, 'startsAt'>, now: Date): boolean {
  return podclub.startsAt.getTime() <= now.getTime()
}

/** Why the seats of a podclub can no longer change, or null while they can. */
export function whySeatsAreClosed(
  podclub: Timed,
  now: Date,
): 'completed' | 'cancelled' | 'started' | null {
  if (podclub.status === 'completed' || podclub.status === 'cancelled') return podclub.status
  return hasStarted(podclub, now) ? 'started' : null
}

/** Whether seats and the seat waitlist of the podclub can change: upcoming and not started. */
export function isOpenForSeats(podclub: Timed, now: Date): boolean {
  return whySeatsAreClosed(podclub, now) === null
}

// ---------------------------------------------------------------------------------------------
// Seats left: 9 minus the seats held.

/**
 * SQL column for a query on `podclubs`: how many of its seats are free. Every answer that carries
 * `seats_left` selects this.
 */
export function seatsLeft(): SQL<number> {
  return sql<number>`greatest(0, ${SEATS_PER_PODCLUB} - (select count(*) from ${registrations} where ${col(registrations.podclubId)} = ${col(podclubs.id)}))::int`.mapWith(
    Number,
  )
}

/** SQL column for a query on `podclubs`: the id of the seat `userId` holds in it, or null. */
export function seatHeldBy(userId: number): SQL<number | null> {
  return sql<
    number | null
  >`(select ${col(registrations.id)} from ${registrations} where ${col(registrations.podclubId)} = ${col(podclubs.id)} and ${col(registrations.userId)} = ${userId})`
}

/** SQL column for a query on `podclubs`: whether `userId` is on its seat waitlist. */
export function onSeatWaitlist(userId: number): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${seatWaitlist} where ${col(seatWaitlist.podclubId)} = ${col(podclubs.id)} and ${col(seatWaitlist.userId)} = ${userId})`
}

/**
 * The free seats of one podclub (0 for an unknown one). Under the seat lock, call it as its own
 * statement after taking the lock: a statement that waited for the lock reads with the snapshot
 * it started with, and would miss the seat its predecessor just took.
 */
export async function readSeatsLeft(db: Db | Tx, podclubId: number): Promise<number> {
  const [row] = await db
    .select({ left: seatsLeft() })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  return row?.left ?? 0
}
