import { count, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { appSecrets, inviteCodes, users } from '../../db/schema/index'
import type { Env } from '../../lib/env'
import { hashPassword } from '../../lib/passwords'
import { randomToken } from '../../lib/tokens'

/** SESSION_SECRET when set; else a secret made on first start and kept in the database. */
export async function resolveSessionSecret(db: Db, fromEnv: string | undefined): Promise<string> {
  if (fromEnv) return fromEnv
  await db
    .insert(appSecrets)
    .values({ name: 'session', value: randomToken(32) })
    .onConflictDoNothing()
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, 'session'))
  return row!.value
}

export type BootstrapResult = {
  /** Set on the first start of an empty database only. */
  createdAdmin?: { username: string; email: string; generatedPassword?: string }
  inviteLink: string
}

/**
 * Runs at every start: keeps the reusable club code of CLUB_INVITE_CODE in the table, and on an
 * empty database creates the first super user.
 */
export async function bootstrap(db: Db, env: Env): Promise<BootstrapResult> {
  const code = env.CLUB_INVITE_CODE
  const [existing] = await db.select().from(inviteCodes).where(eq(inviteCodes.code, code))
  if (!existing) {
    await db.insert(inviteCodes).values({ code, reusable: true }).onConflictDoNothing()
  } else if (!existing.reusable) {
    throw new Error(
      `CLUB_INVITE_CODE: "${code}" is already a single-use welcome code; choose another club code`,
    )
  }
  const inviteLink = `${env.APP_URL}/register/${encodeURIComponent(code)}`

  const [{ value: userCount } = { value: 0 }] = await db.select({ value: count() }).from(users)
  if (userCount > 0) return { inviteLink }

  const generatedPassword = env.ADMIN_PASSWORD ? undefined : randomToken(12)
  const username = env.ADMIN_USERNAME
  const email = env.ADMIN_EMAIL ?? `${username}@${new URL(env.APP_URL).hostname}`
  const inserted = await db
    .insert(users)
    .values({
      username,
      email,
      passwordHash: await hashPassword(env.ADMIN_PASSWORD ?? generatedPassword!),
      isSuperuser: true,
    })
    // Two processes starting on one empty PostgreSQL: only one creates the admin.
    .onConflictDoNothing()
    .returning({ id: users.id })
  if (inserted.length === 0) return { inviteLink }
  return { createdAdmin: { username, email, generatedPassword }, inviteLink }
}
