import { and, eq, inArray } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { podclubs, users } from '../../db/schema/index'
import type { AppDeps } from '../../deps'
import { isActiveAccount } from '../accounts/accounts.rules'
import { readCalendarPodclubs } from '../calendar/calendar.service'
import { enqueueMail } from '../mail/mail.service'
import { seatMail, type SeatMailKind } from './seat.mail'

/**
 * Queues the seat e-mails of one podclub (each with its `.ics`) in the caller's transaction. A
 * member who deleted their account has no address left and is mailed nothing.
 */
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
      and(
        inArray(
          users.id,
          changes.map((c) => c.userId),
        ),
        isActiveAccount(),
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
