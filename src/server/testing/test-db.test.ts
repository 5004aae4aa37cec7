import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cacheVersions, users } from '../db/schema/index'
import type { Db } from '../db/client'
import { createTestDatabase } from './test-db'

type Snapshot = { users: number; versions: unknown[]; nextUserId: number }

/** What a test file would find: no members, the template's versions, ids from the start. */
async function look(db: Db): Promise<Snapshot> {
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(users)
  const versions = await db.select().from(cacheVersions).orderBy(cacheVersions.name)
  const [user] = await db
    .insert(users)
    .values({ username: 'first', email: 'first@example.com', passwordHash: 'x' })
    .returning({ id: users.id })
  return { users: count!.n, versions, nextUserId: user!.id }
}

describe('a test file’s database', () => {
  it('is the template’s, whatever the file before it left', async () => {
    const first = await createTestDatabase()
    const fresh = await look(first.db)
    // A file that writes, raises versions, listens, and closes its database.
    await first.db
      .insert(users)
      .values({ username: 'left', email: 'left@example.com', passwordHash: 'x' })
    await first.db.execute(sql`update cache_versions set version = version + 5`)
    let heard = 0
    await first.listen('left_behind', { onPayload: () => (heard += 1), onResumed: () => {} })
    await first.close()

    const next = await createTestDatabase()
    try {
      if (next.engine === 'pglite') {
        // Given out again, not opened anew (the point of it), through a handle of its own.
        expect((next as unknown as { client: unknown }).client).toBe(
          (first as unknown as { client: unknown }).client,
        )
        expect(next.db).not.toBe(first.db)
      }
      expect(await look(next.db)).toEqual(fresh)
      await next.db.execute(sql`notify left_behind, 'x'`)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(heard).toBe(0)
    } finally {
      await next.close()
    }
  })
})
