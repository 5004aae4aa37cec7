import { and, eq, sql } from 'drizzle-orm'
import type { CreateSignupBody, SessionUser } from '#contract/auth'
import type { Db } from '../../db/client'
import { inviteCodes, users } from '../../db/schema/index'
import { AppError, FieldErrors } from '../../lib/app-error'
import { uniqueViolation } from '../../lib/db-errors'
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords'
import type { AuthUser } from '../../plugins/session'
import { enqueueMail } from '../mail/mail.service'

export const toSessionUser = (user: AuthUser): SessionUser => ({
  username: user.username,
  email: user.email,
  is_superuser: user.isSuperuser,
})

const invalidCredentials = () =>
  new AppError('INVALID_CREDENTIALS', 'Invalid username or password.', 400)

/** Checks a username (or e-mail) and password; the same answer and timing for unknown users. */
export async function checkCredentials(db: Db, login: string, password: string): Promise<AuthUser> {
  const needle = login.trim().toLowerCase()
  const [user] = await db
    .select()
    .from(users)
    .where(sql`${users.username} = ${needle} or lower(${users.email}) = ${needle}`)
    .limit(1)
  if (!user) {
    await verifyPassword(await dummyPasswordHash(), password)
    throw invalidCredentials()
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw invalidCredentials()
  return { id: user.id, username: user.username, email: user.email, isSuperuser: user.isSuperuser }
}

const invalidInviteCode = () => new AppError('INVALID_INVITE_CODE', 'Invalid invite code', 400)
const usedInviteCode = () =>
  new AppError('INVITE_CODE_USED', 'This invite code has already been used', 409)

/** Whether a code would let someone sign up now. Codes compare case-sensitively. */
export async function checkInviteCode(db: Db, code: string): Promise<void> {
  const [row] = await db.select().from(inviteCodes).where(eq(inviteCodes.code, code.trim()))
  if (!row) throw invalidInviteCode()
  if (!row.reusable && row.usedById !== null) throw usedInviteCode()
  if (!row.reusable && row.usedAt !== null) throw usedInviteCode()
}

/**
 * Creates a member with an invite code. A welcome code is claimed under a row lock in the same
 * transaction, so two sign-ups racing for one code cannot both succeed.
 */
export async function signUp(
  deps: { db: Db; appUrl: string },
  body: CreateSignupBody,
): Promise<AuthUser> {
  const { db } = deps
  const passwordHash = await hashPassword(body.password)
  const email = body.email.trim()
  try {
    return await createMember(db, body, email, passwordHash, deps.appUrl)
  } catch (err) {
    // Two sign-ups racing for one username or e-mail: the unique index decides.
    const constraint = uniqueViolation(err)
    if (constraint === 'users_username_unique')
      throw new FieldErrors({ username: ['A user with that username already exists.'] })
    if (constraint === 'users_email_lower_unique')
      throw new FieldErrors({ email: ['A user with that email already exists.'] })
    throw err
  }
}

async function createMember(
  db: Db,
  body: CreateSignupBody,
  email: string,
  passwordHash: string,
  appUrl: string,
): Promise<AuthUser> {
  return db.transaction(async (tx) => {
    const [code] = await tx
      .select()
      .from(inviteCodes)
      .where(eq(inviteCodes.code, body.inviteCode.trim()))
      .for('update')
    if (!code) throw invalidInviteCode()
    if (!code.reusable && code.usedAt !== null) throw usedInviteCode()

    const taken = await tx
      .select({ username: users.username, email: users.email })
      .from(users)
      .where(sql`${users.username} = ${body.username} or lower(${users.email}) = lower(${email})`)
    const errors: Record<string, string[]> = {}
    if (taken.some((u) => u.username === body.username))
      errors.username = ['A user with that username already exists.']
    if (taken.some((u) => u.email.toLowerCase() === email.toLowerCase()))
      errors.email = ['A user with that email already exists.']
    if (Object.keys(errors).length > 0) throw new FieldErrors(errors)

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
        .where(and(eq(inviteCodes.id, code.id)))
    }
    await enqueueMail(tx, {
      kind: 'welcome',
      to: email,
      subject: 'Welcome to podclub',
      text:
        `Hi ${user.username},\n\nWelcome to podclub, a book club for podcasts.\n` +
        `Pick a podclub to join: ${appUrl}/home?skipSplash=true\n\n` +
        'no bots. no ai. no bs.\n',
    })
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      isSuperuser: user.isSuperuser,
    }
  })
}
