import { count, countDistinct, eq, sql } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getSplashStatsEndpoint, type SplashStats } from '#contract/podclubs'
import type { Db } from '../../db/client'
import { cachedByVersion, type CachedRead } from '../../db/cache-versions'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { podclubs, users } from '../../db/schema/index'
import { isActiveAccount } from '../accounts/accounts.rules'

/**
 * The stats card's numbers as CONTRACT.md counts them: every account (but deleted ones); completed podclubs;
 * distinct non-empty cities, ignoring case and surrounding spaces.
 */
export async function readSplashStats(db: Db): Promise<SplashStats> {
  const city = sql`lower(btrim(${users.city}))`
  const [members] = await db
    .select({ n: count(), cities: countDistinct(sql`nullif(${city}, '')`) })
    .from(users)
    .where(isActiveAccount())
  const [completed] = await db
    .select({ n: count() })
    .from(podclubs)
    .where(eq(podclubs.status, 'completed'))
  return {
    member_count: members?.n ?? 0,
    completed_podclub_count: completed?.n ?? 0,
    cities_count: members?.cities ?? 0,
  }
}

/** The stats card's counts: accounts and their cities, completed podclubs. */
export const SPLASH_READ: CachedRead = {
  name: 'splash',
  versions: ['podclubs', 'members'],
  dependsOn: {
    // email: the partial indexes of live accounts (deleted_at is null) are on it.
    users: ['city', 'deleted_at', 'email'],
    podclubs: ['status', 'starts_at'],
  },
}

/**
 * Every visit of the home screen asks for the numbers: they are counted once per version of the
 * podclubs and the members (`cachedByVersion`, as every shared read), and the requests that arrive
 * while a count runs wait for it instead of counting again. A failed count is not kept.
 */
export function createSplashStatsCache(db: Db) {
  const read = cachedByVersion(db, SPLASH_READ, () => readSplashStats(db))
  return () => read('stats')
}

export const splashRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const stats = createSplashStatsCache(deps.db)
  route(app, getSplashStatsEndpoint, async () => ({ data: await stats() }))
}
