import { and, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../deps'
import type { Tx } from '../../db/client'
import { transaction } from '../../db/transaction'
import { passwordResetTokens, sessions, users } from '../../db/schema/index'
import { AppError } from '../../lib/app-error'
import { hashPassword } from '../../lib/passwords'
import { hmac, randomToken, safeEqual, sha256 } from '../../lib/tokens'
import { links } from '../../lib/links'
import { enqueueMail } from '../mail/mail.service'
import { isActiveAccount } from './accounts.rules'
import { PASSWORD_RESET_VALID_MINUTES, passwordResetMail } from '../mail/templates/index'

const RESET_VALID_MS = PASSWORD_RESET_VALID_MINUTES * 60 * 1000

export const invalidResetToken = () => new AppError('NOT_FOUND', 'Invalid password reset token.')

/**
 * A reset token is `<random>.<fingerprint>`: 256 random bits, plus an HMAC of the account's
 * current password hash. The table keeps only the SHA-256 of the whole token. Because the
 * fingerprint follows the password, any password change (a reset, the admin command, a future
 * profile form) kills every link issued before it, with no bookkeeping.
 */
function fingerprint(secret: string, userId: number, passwordHash: string) {
  return hmac(secret, `password-reset:${userId}:${passwordHash}`).slice(0, 22)
}

/**
 * One reset e-mail per account in this long, whoever asks: more requests in the window are
 * answered as usual and mail nothing, so nobody can flood a member's inbox, and nobody can use
 * the requests up before the owner asks (the link already mailed works for an hour).
 */
export const RESET_MAIL_WINDOW_MS = 15 * 60 * 1000

/**
 * POST /auth/passwordreset/: mails a reset link when the address belongs to an account, unless
 * one was mailed to it in the current window (`RESET_MAIL_WINDOW_MS`). The caller answers the
 * same either way, so the form does not tell who is a member, nor whether a mail went out.
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  await transaction(deps, async (tx) => {
    const [user] = await tx
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        passwordHash: users.passwordHash,
      })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isActiveAccount()))
    if (!user) return
    const token = `${randomToken(32)}.${fingerprint(deps.sessionSecret, user.id, user.passwordHash)}`
    const now = deps.clock.now().getTime()
    const mail = passwordResetMail({
      username: user.username,
      resetUrl: links(deps.env).passwordReset(token),
    })
    const queued = await enqueueMail(tx, {
      kind: 'password-reset',
      to: user.email,
      dedupeKey: `password-reset:${user.id}:${Math.floor(now / RESET_MAIL_WINDOW_MS)}`,
      ...mail,
    })
    // Mailed already in this window: that link stands, and this one is never sent nor kept.
    if (queued.length === 0) return
    await tx.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now + RESET_VALID_MS),
    })
  })
}

/** The token's row and account when the token still works: unused, unexpired, same password. */
async function findLiveToken(deps: AppDeps, tx: Tx, token: string, lock: boolean) {
  const query = tx
    .select({
      id: passwordResetTokens.id,
      userId: passwordResetTokens.userId,
      expiresAt: passwordResetTokens.expiresAt,
      usedAt: passwordResetTokens.usedAt,
      passwordHash: users.passwordHash,
    })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(eq(passwordResetTokens.tokenHash, sha256(token)))
  const [row] = lock ? await query.for('update') : await query
  if (!row || row.usedAt !== null) return undefined
  if (row.expiresAt.getTime() <= deps.clock.now().getTime()) return undefined
  const [, given] = token.split('.')
  const expected = fingerprint(deps.sessionSecret, row.userId, row.passwordHash)
  if (!given || !safeEqual(given, expected)) return undefined
  return row
}

/** POST /auth/passwordreset/validate_token/ */
export async function checkResetToken(deps: AppDeps, token: string): Promise<void> {
  const row = await transaction(deps, (tx) => findLiveToken(deps, tx, token, false))
  if (!row) throw invalidResetToken()
}

/**
 * POST /auth/passwordreset/confirm/: sets the new password, uses the token up (with every other
 * open link of the account) and ends every session of that account, in one transaction.
 */
export async function resetPassword(deps: AppDeps, token: string, password: string) {
  // Hashing is slow on purpose; a token that cannot work is refused before paying for it.
  await checkResetToken(deps, token)
  const passwordHash = await hashPassword(password)
  await transaction(deps, async (tx) => {
    const row = await findLiveToken(deps, tx, token, true)
    if (!row) throw invalidResetToken()
    await replacePassword(tx, row.userId, passwordHash)
  })
}

/**
 * The one way a password changes, whoever changes it (a reset link, an operator's command): the
 * new hash, every open reset link of the account used up, and every session of the account
 * ended, so whoever knew the old password is out at once.
 */
async function replacePassword(tx: Tx, userId: number, passwordHash: string) {
  await tx.update(users).set({ passwordHash }).where(eq(users.id, userId))
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
  await tx.delete(sessions).where(eq(sessions.userId, userId))
}

/**
 * An operator sets a member's password (`npm run admin -- set-password`), with the same effects
 * as a reset. False when nobody has that username.
 */
export async function setPassword(
  deps: Pick<AppDeps, 'db' | 'wakeOutbox'>,
  username: string,
  password: string,
): Promise<boolean> {
  const passwordHash = await hashPassword(password)
  return transaction(deps, async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.username, username.trim().toLowerCase()), isActiveAccount()))
      .for('update')
    if (!user) return false
    await replacePassword(tx, user.id, passwordHash)
    return true
  })
}
