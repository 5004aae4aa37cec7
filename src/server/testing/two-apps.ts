import { createTestDatabase } from './test-db'
import { buildTestApp, type TestApp } from './test-app'

/**
 * Two app instances on one fresh database, as two processes would run them: on PostgreSQL each
 * has its own connection pool; on PGlite, which one process serves by design, they share it.
 */
export async function openTwoApps(
  opts: Omit<NonNullable<Parameters<typeof buildTestApp>[0]>, 'database'> = {},
): Promise<{
  a: TestApp
  b: TestApp
  close: () => Promise<void>
}> {
  const database = await createTestDatabase()
  const second = await database.connectAgain()
  const a = await buildTestApp({ ...opts, database })
  const b = await buildTestApp({ ...opts, database: second })
  return {
    a,
    b,
    async close() {
      await a.close()
      await b.close()
      await second.close()
      await database.close()
    },
  }
}
