import { eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { cacheVersions } from '../../db/schema/index'

/** The row of `cache_versions` that every change to what podclub lists show bumps. */
export const PODCLUBS_VERSION = 'podclubs'

/**
 * Marks every cached podclub list stale, in every process. Call it in the transaction of any
 * change a list shows (a seat taken or freed, a podclub created, edited, completed): the new
 * version becomes visible exactly when the change does.
 */
export async function bumpPodclubsVersion(tx: Tx): Promise<void> {
  await tx
    .insert(cacheVersions)
    .values({ name: PODCLUBS_VERSION, version: 1 })
    .onConflictDoUpdate({
      target: cacheVersions.name,
      set: { version: sql`${cacheVersions.version} + 1` },
    })
}

/** The current version (0 before the first change): one tiny indexed read. */
export async function readPodclubsVersion(db: Db | Tx): Promise<number> {
  const [row] = await db
    .select({ version: cacheVersions.version })
    .from(cacheVersions)
    .where(eq(cacheVersions.name, PODCLUBS_VERSION))
  return row?.version ?? 0
}
