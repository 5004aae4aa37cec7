import { count, countDistinct, eq, sql } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getSplashStatsEndpoint, type SplashStats } from '#contract/podclubs'
import type { Db } from '../../db/client'
import type { AppDeps } from '../../deps'
import type { Clock } from '../../lib/clock'
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

/** How long one count answers every request. */
export const SPLASH_STATS_MAX_AGE_MS = 10_000

/**
 * The numbers change slowly and nobody needs them to the second, while every visit of the home
 * screen asks for them: one count answers every request for 10 s, and the requests that arrive
 * while it runs wait for it instead of counting again. A failed count is not kept.
 */
export function createSplashStatsCache(db: Db, clock: Clock) {
  let cached: { at: number; stats: Promise<SplashStats> } | undefined
  return () => {
    const now = clock.now().getTime()
    if (!cached || now - cached.at >= SPLASH_STATS_MAX_AGE_MS || now < cached.at) {
      const stats = readSplashStats(db)
      const entry = { at: now, stats }
      cached = entry
      stats.catch(() => {
        if (cached === entry) cached = undefined
      })
    }
    return cached.stats
  }
}

export const splashRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const stats = createSplashStatsCache(deps.db, deps.clock)
  route(app, getSplashStatsEndpoint, async () => ({ data: await stats() }))
}
