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
  localGeneration += 1
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

let localGeneration = 0

/**
 * How many bumps this process has made. On PGlite, which serves one process, these are all the
 * changes there are, so a cache can compare this number instead of querying the version. It
 * moves before the change commits; PGlite runs a transaction alone (other queries wait for its
 * end), so a reader that sees the new number and then queries sees the committed change.
 */
export function localPodclubsGeneration(): number {
  return localGeneration
}
