import { and, asc, eq, exists, or, sql } from 'drizzle-orm'
import {
  FORMER_MEMBER_NAME,
  LAST_SUPERUSER_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
} from '#contract/profile'
import type { Tx } from '../../db/client'
import {
  idempotencyKeys,
  passwordResetTokens,
  podclubs,
  seatWaitlist,
  sessions,
  users,
} from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, FieldErrors, notFound } from '../../lib/app-error'
import { verifyPassword } from '../../lib/passwords'
import type { AuthUser } from '../../plugins/session'
import { forgetInvites } from '../invites/invites.service'
import { forgetRecipient } from '../mail/mail.service'
import { takesPart } from '../podclubs/podclubs.rules'
import { cancelForLeavingPodmeister } from '../podclubs/podclubs.service'
import { forgetVoter } from '../polls/polls.service'
import { leaveSeatAndWaitlist } from '../registrations/registrations.service'
import { isActiveAccount } from './accounts.rules'
import { leaveWaitlist } from './waitlist.service'

/**
 * 'delete my account' (docs/decisions/019), once the password is checked. One transaction,
 * holding the member's row from the start:
 * 1. the account is marked deleted, so nothing that follows mails it or gives it a seat;
 * 2. each upcoming podclub the member is part of, in id order: one they host that has not
 *    started is cancelled by the podclub lifecycle (its members mailed, its waitlist gone);
 *    in any other, their seat is given back as their own cancel would give it back (the
 *    waitlist promotion and its e-mails) and their place on the seat waitlist goes;
 * 3. what is personal goes for good: the row keeps no username, address, city, password or
 *    calendar key; sessions, reset links and idempotency keys are deleted; the outbox, vote
 *    codes, welcome codes and the invite waitlist forget the address.
 * What they wrote and took part in stays, named 'a former member': hindsights, seats in and
 * podclubs hosted that have happened, suggestions and feedback.
 */
export async function deleteAccount(
  deps: AppDeps,
  member: AuthUser,
  password: string,
): Promise<void> {
  const [account] = await deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, member.id), isActiveAccount()))
  if (!account) throw notFound('Member')
  if (!(await verifyPassword(account.passwordHash, password))) {
    throw new FieldErrors({ password: [WRONG_PASSWORD_MESSAGE] })
  }

  await transaction(deps, async (tx) => {
    if (member.isSuperuser) await refuseLastSuperuser(tx, member.id)
    // The row lock every seat change for this member waits on (`lockForSeatChange`). Not a key
    // lock: a seat given to them by another member's cancel does not wait on it.
    const [row] = await tx
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(and(eq(users.id, member.id), isActiveAccount()))
      .for('no key update')
    if (!row) throw notFound('Member')
    await tx.update(users).set({ deletedAt: deps.clock.now() }).where(eq(users.id, row.id))

    for (const podclub of await upcomingPodclubsOf(tx, row.id)) {
      if (podclub.hosts) await cancelForLeavingPodmeister(tx, deps, podclub.id)
      else await leaveSeatAndWaitlist(tx, deps, podclub.id, row.id)
    }

    await tx
      .update(users)
      .set({
        username: FORMER_MEMBER_NAME,
        email: '',
        passwordHash: '',
        city: '',
        source: '',
        isSuperuser: false,
        emailConfirmedAt: null,
        blastsUnsubscribedAt: null,
        calendarKey: sql`gen_random_uuid()::text`,
        calendarTokenHash: null,
      })
      .where(eq(users.id, row.id))
    await tx.delete(sessions).where(eq(sessions.userId, row.id))
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, row.id))
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, row.id))
    await forgetRecipient(tx, row.email, FORMER_MEMBER_NAME)
    await forgetVoter(tx, row.email)
    await forgetInvites(tx, row, FORMER_MEMBER_NAME)
    await leaveWaitlist(tx, row.email)
  })
}

/**
 * The club keeps at least one super user: the last cannot delete their account. The super users'
 * rows are locked in id order, so two of them deleting at once take turns, and the second sees
 * that the first is gone.
 */
async function refuseLastSuperuser(tx: Tx, userId: number): Promise<void> {
  const superusers = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isSuperuser, true), isActiveAccount()))
    .orderBy(asc(users.id))
    .for('no key update')
  if (superusers.length <= 1 && superusers.some((s) => s.id === userId)) {
    throw new AppError('CONFLICT', LAST_SUPERUSER_MESSAGE)
  }
}

/**
 * The upcoming podclubs the member hosts, holds a seat in or waits for, in id order (the order
 * every transaction that locks several podclubs takes them in), and whether they host each.
 */
function upcomingPodclubsOf(tx: Tx, userId: number) {
  const waiting = tx
    .select({ id: seatWaitlist.id })
    .from(seatWaitlist)
    .where(and(eq(seatWaitlist.podclubId, podclubs.id), eq(seatWaitlist.userId, userId)))
  return tx
    .select({ id: podclubs.id, hosts: sql<boolean>`${podclubs.podmeisterId} = ${userId}` })
    .from(podclubs)
    .where(and(eq(podclubs.status, 'upcoming'), or(takesPart(userId), exists(waiting))))
    .orderBy(asc(podclubs.id))
}
