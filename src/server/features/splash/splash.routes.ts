import { count, countDistinct, eq, sql } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getSplashStatsEndpoint, type SplashStats } from '#contract/podclubs'
import type { Db } from '../../db/client'
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

export const splashRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getSplashStatsEndpoint, async () => ({ data: await readSplashStats(deps.db) }))
}
