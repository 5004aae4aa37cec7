import type { Clock } from '../lib/clock'
import { createTestDatabase } from './test-db'
import { buildTestApp, type TestApp } from './test-app'

/**
 * Two app instances on one fresh database, as two processes would run them: on PostgreSQL each
 * has its own connection pool; on PGlite, which one process serves by design, they share it.
 */
export async function openTwoApps(opts: { clock?: Clock } = {}): Promise<{
  a: TestApp
  b: TestApp
  close: () => Promise<void>
}> {
  const database = await createTestDatabase()
  const second = await database.connectAgain()
  const a = await buildTestApp({ database, clock: opts.clock })
  const b = await buildTestApp({ database: second, clock: opts.clock })
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
