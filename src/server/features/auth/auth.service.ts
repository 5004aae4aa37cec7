import { and, eq, sql } from 'drizzle-orm'
import {
  INVALID_INVITE_CODE_MESSAGE,
  SIGNUP_EMAIL_REFUSED_MESSAGE,
  USED_INVITE_CODE_MESSAGE,
  type CreateSignupBody,
  type SessionUser,
} from '#contract/auth'
import type { Db } from '../../db/client'
import { inviteCodes, users } from '../../db/schema/index'
import { AppError, FieldErrors } from '../../lib/app-error'
import { uniqueFieldErrors } from '../../lib/db-errors'
import type { AppDeps } from '../../deps'
import { transaction } from '../../db/transaction'
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords'
import type { AuthUser } from '../../plugins/session'
import { isActiveAccount } from '../accounts/accounts.rules'
import { confirmationUrl } from '../accounts/email-confirmation.service'
import { enqueueMail } from '../mail/mail.service'
import { signupAttemptMail, welcomeMail } from '../mail/templates/index'

export const toSessionUser = (user: AuthUser): SessionUser => ({
  username: user.username,
  email: user.email,
  is_superuser: user.isSuperuser,
})

const invalidCredentials = () =>
  new AppError('INVALID_CREDENTIALS', 'Invalid username or password.')

type LoginAccount = typeof users.$inferSelect

/** The account a login names, by username or e-mail, case-insensitively. */
export async function findLoginAccount(db: Db, login: string): Promise<LoginAccount | undefined> {
  const needle = login.trim().toLowerCase()
  const [user] = await db
    .select()
    .from(users)
    .where(
      and(
        sql`(${users.username} = ${needle} or lower(${users.email}) = ${needle})`,
        isActiveAccount(),
      ),
    )
    .limit(1)
  return user
}

/** Checks the password as typed; the same answer and timing when there is no such account. */
export async function verifyLogin(
  account: LoginAccount | undefined,
  password: string,
): Promise<AuthUser> {
  if (!account) {
    await verifyPassword(await dummyPasswordHash(), password)
    throw invalidCredentials()
  }
  if (!(await verifyPassword(account.passwordHash, password))) throw invalidCredentials()
  return {
    id: account.id,
    username: account.username,
    email: account.email,
    isSuperuser: account.isSuperuser,
  }
}

const invalidInviteCode = () => new AppError('INVALID_INVITE_CODE', INVALID_INVITE_CODE_MESSAGE)
const usedInviteCode = () => new AppError('INVITE_CODE_USED', USED_INVITE_CODE_MESSAGE)

/** Whether a code would let someone sign up now. Codes compare case-sensitively. */
export async function checkInviteCode(db: Db, code: string): Promise<void> {
  const [row] = await db.select().from(inviteCodes).where(eq(inviteCodes.code, code.trim()))
  if (!row || row.deactivatedAt !== null) throw invalidInviteCode()
  if (!row.reusable && row.usedById !== null) throw usedInviteCode()
  if (!row.reusable && row.usedAt !== null) throw usedInviteCode()
}

/**
 * Creates a member with an invite code. A welcome code is claimed under a row lock in the same
 * transaction, so two sign-ups racing for one code cannot both succeed; two racing for one
 * username or e-mail are settled by the unique indexes (see `uniqueFieldErrors`).
 *
 * A taken username is said so (usernames are public in the club). A taken e-mail address is
 * not: the answer is a refusal that names no account, and the address's owner is e-mailed
 * instead, at most once an hour (docs/decisions/013).
 */
export async function signUp(deps: AppDeps, body: CreateSignupBody): Promise<AuthUser> {
  const passwordHash = await hashPassword(body.password)
  const email = body.email.trim()
  const outcome = await transaction(deps, async (tx) => {
    const [code] = await tx
      .select()
      .from(inviteCodes)
      .where(eq(inviteCodes.code, body.inviteCode.trim()))
      .for('update')
    if (!code || code.deactivatedAt !== null) throw invalidInviteCode()
    if (!code.reusable && code.usedAt !== null) throw usedInviteCode()

    const taken = await tx
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(sql`${users.username} = ${body.username} or lower(${users.email}) = lower(${email})`)
    const errors: Record<string, string[]> = {}
    if (taken.some((u) => u.username === body.username)) {
      errors.username = [uniqueFieldErrors.users_username_unique!.message]
    }
    const owner = taken.find((u) => u.email.toLowerCase() === email.toLowerCase())
    if (owner) {
      errors.email = [SIGNUP_EMAIL_REFUSED_MESSAGE]
      const hour = Math.floor(deps.clock.now().getTime() / 3_600_000)
      await enqueueMail(tx, {
        kind: 'signup-attempt',
        to: owner.email,
        // One a hour at most, however often the address is tried.
        dedupeKey: `signup-attempt:${owner.id}:${hour}`,
        ...signupAttemptMail({ appUrl: deps.env.APP_URL, username: owner.username }),
      })
    }
    // Refused, but committed: the owner's e-mail is the one thing this attempt leaves behind.
    if (Object.keys(errors).length > 0) return { refused: errors }

    const [user] = await tx
      .insert(users)
      .values({
        username: body.username,
        email,
        passwordHash,
        city: body.city.trim(),
        source: body.source.trim(),
        inviteCodeId: code.id,
      })
      .returning()
    if (!user) throw new Error('insert returned no row')
    if (!code.reusable) {
      await tx
        .update(inviteCodes)
        .set({ usedById: user.id, usedAt: sql`now()` })
        .where(eq(inviteCodes.id, code.id))
    }
    const welcome = welcomeMail({
      appUrl: deps.env.APP_URL,
      username: user.username,
      confirmUrl: confirmationUrl(deps, user),
    })
    await enqueueMail(tx, { kind: 'welcome', to: email, ...welcome })
    return {
      user: {
        id: user.id,
        username: user.username,
        email: user.email,
        isSuperuser: user.isSuperuser,
      },
    }
  })
  if (!outcome.user) throw new FieldErrors(outcome.refused)
  return outcome.user
}
