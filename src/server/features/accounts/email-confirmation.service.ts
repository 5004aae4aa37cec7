import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps'
import type { Tx } from '../../db/client'
import { transaction } from '../../db/transaction'
import { users } from '../../db/schema/index'
import { AppError } from '../../lib/app-error'
import { hmac, safeEqual } from '../../lib/tokens'
import { enqueueMail } from '../mail/mail.service'
import { isActiveAccount } from './accounts.rules'
import { links } from '../../lib/links'
import { emailConfirmationMail } from '../mail/templates/index'

/** How long a confirmation link works. */
export const CONFIRMATION_VALID_MS = 7 * 24 * 60 * 60 * 1000

/**
 * Confirmation links need no table: the token is `<issued at>.<HMAC of user id, address and issue
 * time>` signed with the session secret. Changing the address (or the secret) kills it, and it
 * expires after 7 days. Confirming twice is harmless, so the link is not single-use.
 */
function signature(secret: string, userId: number, email: string, issuedAt: string) {
  return hmac(secret, `email-confirmation:${userId}:${email.toLowerCase()}:${issuedAt}`)
}

export function confirmationToken(
  deps: Pick<AppDeps, 'sessionSecret' | 'clock'>,
  user: { id: number; email: string },
): string {
  const issuedAt = deps.clock.now().getTime().toString(36)
  return `${issuedAt}.${signature(deps.sessionSecret, user.id, user.email, issuedAt)}`
}

export function confirmationUrl(
  deps: Pick<AppDeps, 'sessionSecret' | 'clock' | 'env'>,
  user: { id: number; email: string },
): string {
  return links(deps.env).confirmEmail(user.id, confirmationToken(deps, user))
}

function isValidToken(
  deps: Pick<AppDeps, 'sessionSecret' | 'clock'>,
  user: { id: number; email: string },
  token: string,
): boolean {
  const [issuedAt, sig, extra] = token.split('.')
  if (!issuedAt || !sig || extra !== undefined || !/^[0-9a-z]{1,11}$/.test(issuedAt)) return false
  const age = deps.clock.now().getTime() - Number.parseInt(issuedAt, 36)
  if (!(age >= -60_000 && age <= CONFIRMATION_VALID_MS)) return false
  return safeEqual(signature(deps.sessionSecret, user.id, user.email, issuedAt), sig)
}

const invalidLink = () =>
  new AppError('BAD_REQUEST', 'This confirmation link is invalid or has expired.')

/** POST /confirmEmail/: marks the address confirmed when the link is genuine and recent. */
export async function confirmEmail(deps: AppDeps, uid: number, token: string): Promise<void> {
  await transaction(deps, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, confirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.id, uid))
    if (!user || !isValidToken(deps, user, token)) throw invalidLink()
    if (user.confirmedAt) return
    await tx
      .update(users)
      .set({ emailConfirmedAt: sql`now()` })
      .where(and(eq(users.id, uid), isNull(users.emailConfirmedAt)))
  })
}

/** Queues the confirmation mail for an account, in the caller's transaction. */
export async function enqueueConfirmationMail(
  deps: AppDeps,
  tx: Tx,
  user: { id: number; username: string; email: string },
): Promise<void> {
  const mail = emailConfirmationMail({
    username: user.username,
    confirmUrl: confirmationUrl(deps, user),
  })
  await enqueueMail(tx, { kind: 'email-confirmation', to: user.email, ...mail })
}

/**
 * POST /confirmationEmail/: sends the link again to an unconfirmed account. Says nothing about
 * whether the username exists or is already confirmed: the route answers the same either way.
 */
export async function resendConfirmation(deps: AppDeps, login: string): Promise<void> {
  const needle = login.trim().toLowerCase()
  await transaction(deps, async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        confirmedAt: users.emailConfirmedAt,
      })
      .from(users)
      .where(and(eq(users.username, needle), isActiveAccount()))
    if (!user || user.confirmedAt) return
    await enqueueConfirmationMail(deps, tx, user)
  })
}
