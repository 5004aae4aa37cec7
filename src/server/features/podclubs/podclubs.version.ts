import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { cacheVersions } from '../../db/schema/index'

/**
 * The row of `cache_versions` that marks cached podclub lists stale. The database raises it
 * itself, in the transaction of every change a list shows (triggers on podclubs, registrations,
 * seat_waitlist, podcasts and users: migration 0008), so no code path can forget it.
 */
export const PODCLUBS_VERSION = 'podclubs'

/** The current version (0 before the first change): one tiny indexed read. */
export async function readPodclubsVersion(db: Db | Tx): Promise<number> {
  const [row] = await db
    .select({ version: cacheVersions.version })
    .from(cacheVersions)
    .where(eq(cacheVersions.name, PODCLUBS_VERSION))
  return row?.version ?? 0
}
