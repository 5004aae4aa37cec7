import { and, eq, inArray } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podclubs, users } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { isActiveAccount } from '../accounts/accounts.rules'
import type { CalendarPodclub } from '../calendar/calendar.ics'
import { readCalendarPodclubs } from '../calendar/calendar.service'
import { enqueueMail } from '../mail/mail.service'
import type { SeatMember } from './seat-lock'
import { seatMail, type SeatMailKind } from './seat.mail'

/**
 * Queues the seat e-mails of one podclub (each with its `.ics`) in the caller's transaction, to
 * members given by id, or as read under their row's lock (`lockForSeatChange`); the podclub
 * given by id, or as read under its lock. What was read under a lock is not read again. A member
 * who deleted their account has no address left and is mailed nothing.
 */
export async function mailSeatChanges(
  tx: Tx,
  deps: AppDeps,
  of: number | CalendarPodclub,
  changes: { to: number | SeatMember; kind: SeatMailKind }[],
): Promise<void> {
  if (changes.length === 0) return
  const [podclub] =
    typeof of === 'number' ? await readCalendarPodclubs(tx, eq(podclubs.id, of)) : [of]
  if (!podclub) return
  const unread = changes.flatMap(({ to }) => (typeof to === 'number' ? [to] : []))
  const members =
    unread.length === 0
      ? []
      : await tx
          .select({ id: users.id, username: users.username, email: users.email })
          .from(users)
          .where(and(inArray(users.id, unread), isActiveAccount()))
  const byId = new Map(members.map((m) => [m.id, m]))
  const now = deps.clock.now()
  await enqueueMail(
    tx,
    changes.flatMap(({ to, kind }) => {
      const member = typeof to === 'number' ? byId.get(to) : to
      return member ? [seatMail(kind, podclub, member, deps.env, now)] : []
    }),
  )
}
