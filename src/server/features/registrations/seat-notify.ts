import { eq, inArray } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podclubs, registrations, users } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { readCalendarPodclubs } from '../calendar/calendar.service'
import { enqueueMail } from '../mail/mail.service'
import { seatMail, type SeatMailKind } from './seat.mail'

/** Queues the seat e-mails of one podclub (each with its `.ics`) in the caller's transaction. */
export async function mailSeatChanges(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
  changes: { userId: number; kind: SeatMailKind }[],
): Promise<void> {
  if (changes.length === 0) return
  const [podclub] = await readCalendarPodclubs(tx, eq(podclubs.id, podclubId))
  if (!podclub) return
  const members = await tx
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(
      inArray(
        users.id,
        changes.map((c) => c.userId),
      ),
    )
  const byId = new Map(members.map((m) => [m.id, m]))
  const now = deps.clock.now()
  await enqueueMail(
    tx,
    changes.flatMap(({ userId, kind }) => {
      const member = byId.get(userId)
      return member ? [seatMail(kind, podclub, member, deps.env, now)] : []
    }),
  )
}

/**
 * Mails everyone a change of the podclub itself concerns, its podmeister and the seat holders,
 * the same kind of seat e-mail.
 */
export async function mailEveryoneSeated(
  tx: Tx,
  deps: AppDeps,
  podclubId: number,
  kind: SeatMailKind,
): Promise<void> {
  const [podclub] = await tx
    .select({ podmeisterId: podclubs.podmeisterId })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  if (!podclub) return
  const seats = await tx
    .select({ userId: registrations.userId })
    .from(registrations)
    .where(eq(registrations.podclubId, podclubId))
  const concerned = [podclub.podmeisterId, ...seats.map((s) => s.userId)]
  await mailSeatChanges(
    tx,
    deps,
    podclubId,
    concerned.map((userId) => ({ userId, kind })),
  )
}
