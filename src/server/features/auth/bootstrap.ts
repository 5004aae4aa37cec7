import { and, count, desc, eq, isNull, ne, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { appSecrets, inviteCodes, users } from '../../db/schema/index'
import type { Env } from '../../lib/env'
import { links } from '../../lib/links'
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
  /** The reusable club code in force: CLUB_INVITE_CODE, or the one made on first start. */
  clubInviteCode: string
  inviteLink: string
}

const CLUB_CODE_LOCK_KEY = 7_305_113

/**
 * The club code in force. CLUB_INVITE_CODE when set; otherwise a random one made on the first
 * start and kept (never a default printed in the README, which anyone could read). Any other
 * reusable code is deactivated, so changing the setting retires the old code.
 */
async function resolveClubCode(db: Db, fromEnv: string | undefined): Promise<string> {
  return db.transaction(async (tx) => {
    // Processes starting together on one PostgreSQL settle the code one at a time.
    await tx.execute(sql`select pg_advisory_xact_lock(${CLUB_CODE_LOCK_KEY})`)
    let code = fromEnv
    if (!code) {
      const [current] = await tx
        .select({ code: inviteCodes.code })
        .from(inviteCodes)
        .where(and(eq(inviteCodes.reusable, true), isNull(inviteCodes.deactivatedAt)))
        .orderBy(desc(inviteCodes.id))
        .limit(1)
      code = current?.code ?? `club-${randomToken(9)}`
    }
    const [existing] = await tx.select().from(inviteCodes).where(eq(inviteCodes.code, code))
    if (!existing) {
      await tx.insert(inviteCodes).values({ code, reusable: true }).onConflictDoNothing()
    } else if (!existing.reusable) {
      throw new Error(
        `CLUB_INVITE_CODE: "${code}" is already a single-use welcome code; choose another club code`,
      )
    } else if (existing.deactivatedAt !== null) {
      await tx
        .update(inviteCodes)
        .set({ deactivatedAt: null })
        .where(eq(inviteCodes.id, existing.id))
    }
    await tx
      .update(inviteCodes)
      .set({ deactivatedAt: sql`now()` })
      .where(
        and(
          eq(inviteCodes.reusable, true),
          isNull(inviteCodes.deactivatedAt),
          ne(inviteCodes.code, code),
        ),
      )
    return code
  })
}

/**
 * Runs at every start: settles the reusable club code, and on an empty database creates the
 * first super user.
 */
export async function bootstrap(db: Db, env: Env): Promise<BootstrapResult> {
  const clubInviteCode = await resolveClubCode(db, env.CLUB_INVITE_CODE)
  const inviteLink = links(env).register(clubInviteCode)
  const result = { clubInviteCode, inviteLink }

  const [{ value: userCount } = { value: 0 }] = await db.select({ value: count() }).from(users)
  if (userCount > 0) return result

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
  if (inserted.length === 0) return result
  return { ...result, createdAdmin: { username, email, generatedPassword } }
}
