import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import pg from 'pg'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { apiRoutes, screenPreloads } from './vite.config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { SlowestTestFiles } from './scripts/slowest-test-files'

const src = (dir: string) => fileURLToPath(new URL(`./src/${dir}/`, import.meta.url))
const alias = [
  { find: /^#contract\//, replacement: src('contract') },
  { find: /^#server\//, replacement: src('server') },
  { find: /^#client\//, replacement: src('client') },
]
const serverTests = ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts']
/**
 * The server's test files share their worker's modules instead of importing the app afresh for
 * each file: every file builds its own app on its own database, and nothing the app keeps lives
 * in a module (docs/decisions/015). That saves a second or two of imports per file. The client's
 * files keep their own jsdom each.
 */
const sharedModules = { isolate: false }

/**
 * The files that run real processes and wait on them (a stopped server, backups, the CLI), by
 * the time they take: started first, so the run does not end on one of them alone. Vitest
 * orders by the previous run's durations when it has them; a fresh clone has none.
 */
const SLOW_FIRST = [
  'src/server/main.test.ts',
  'src/server/db/backup.test.ts',
  'src/server/cli.test.ts',
  'src/server/db/connection-storm.pg.test.ts',
  'src/server/db/client.test.ts',
  'src/server/faults.test.ts',
  'src/server/faults.redis.test.ts',
  'src/server/api-input.test.ts',
]
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((slow) => file.moduleId.endsWith(slow))
      return at === -1 ? SLOW_FIRST.length : at
    }
    // Stable: within a rank, Vitest's own order (by project, then by duration or size).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

/** The PostgreSQL suite runs when TEST_DATABASE_URL is set and answers; otherwise it says why not. */
async function reachablePostgres(): Promise<string | undefined> {
  const url = process.env.TEST_DATABASE_URL
  const skip = (why: string) => {
    // In CI the PostgreSQL run is part of the test command: a database it cannot reach is a
    // failure, not a reason to test less.
    if (process.env.CI) throw new Error(`The PostgreSQL suite cannot run in CI: ${why}`)
    console.warn(
      `\n[podclub] PostgreSQL suite skipped: ${why}. The server tests run on PGlite only.\n`,
    )
    return undefined
  }
  if (!url) return skip('TEST_DATABASE_URL is not set')
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
    return url
  } catch (err) {
    return skip(`cannot reach ${new URL(url).host} (${(err as Error).message})`)
  } finally {
    await client.end().catch(() => {})
  }
}

const postgresUrl = await reachablePostgres()

/** The Redis suite runs when TEST_REDIS_URL is set and answers PING; otherwise it says why not. */
async function reachableRedis(): Promise<string | undefined> {
  const url = process.env.TEST_REDIS_URL
  const skip = (why: string) => {
    if (process.env.CI) throw new Error(`The Redis suite cannot run in CI: ${why}`)
    console.warn(`\n[podclub] Redis suite skipped: ${why}.\n`)
    return undefined
  }
  if (!url) return skip('TEST_REDIS_URL is not set')
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  redis.on('error', () => {})
  try {
    await redis.connect()
    await redis.ping()
    return url
  } catch (err) {
    return skip(`cannot reach ${new URL(url).host} (${(err as Error).message})`)
  } finally {
    redis.disconnect()
  }
}

const redisUrl = await reachableRedis()

/**
 * The client's files share their worker's jsdom and modules too (`sharedModules`): the setup file
 * puts back after each test what a test may change (the DOM, cookies, storage, toasts, stubbed
 * globals and spies), which took the client's files from 143 s to 49 s on 2 cores. A file that
 * replaces a module with `vi.mock` needs modules of its own, and runs apart.
 */
const FRESH_MODULES = [
  'src/client/app/route-errors.test.tsx',
  // Imports the server's render module, which sends the API's requests its own way.
  'src/client/server-rendered.test.tsx',
]
function clientProject(test: {
  name: string
  include: string[]
  exclude?: string[]
  isolate?: boolean
}) {
  return {
    plugins: [react(), apiRoutes(), screenPreloads(false)],
    resolve: { alias },
    test: {
      environment: 'jsdom' as const,
      setupFiles: ['src/client/testing/setup.ts'],
      // A whole form walked through with user-event takes seconds on a busy 2-core machine.
      testTimeout: 15_000,
      // The first file in a worker that loads the toaster transforms Radix for the whole worker.
      hookTimeout: 30_000,
      ...test,
    },
  }
}

export default defineConfig({
  test: {
    // One worker more than there are cores, not Vitest's one less: the server's files wait on
    // processes, sockets, PostgreSQL and timers much of their time, and a third worker computes
    // meanwhile (on 2 cores, one worker took 757 s, two 240 s, three 207 s).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: SlowFirstSequencer },
    // Vitest's own report, then where the time went.
    reporters: ['default', new SlowestTestFiles()],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          ...sharedModules,
          include: serverTests,
          // `*.pg.test.ts` are about the PostgreSQL server alone (pool limits, lost connections),
          // `*.redis.test.ts` about a real Redis: their own runs only.
          exclude: ['**/*.pg.test.ts', '**/*.redis.test.ts'],
          globalSetup: ['src/server/testing/global-setup.ts'],
          setupFiles: ['src/server/testing/setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              resolve: { alias },
              test: {
                name: 'server-postgres',
                environment: 'node',
                ...sharedModules,
                include: ['src/server/**/*.test.ts'],
                // Only what talks to the database: the data folder lock, the process tests and a
                // full disk are about PGlite, and lib/ has no queries.
                exclude: [
                  'src/server/faults.test.ts',
                  'src/server/db/client.test.ts',
                  'src/server/db/backup.test.ts',
                  'src/server/main.test.ts',
                  'src/server/lib/**',
                  '**/*.redis.test.ts',
                ],
                globalSetup: ['src/server/testing/global-setup.ts'],
                setupFiles: ['src/server/testing/setup.ts'],
                env: { TEST_ENGINE: 'postgres' },
                testTimeout: 20_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      ...(redisUrl
        ? [
            {
              resolve: { alias },
              test: {
                name: 'server-redis',
                environment: 'node',
                ...sharedModules,
                include: ['src/server/**/*.redis.test.ts'],
                globalSetup: ['src/server/testing/global-setup.ts'],
                setupFiles: ['src/server/testing/setup.ts'],
                env: { TEST_REDIS_URL: redisUrl },
                testTimeout: 20_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      clientProject({
        name: 'client',
        ...sharedModules,
        include: ['src/client/**/*.test.{ts,tsx}'],
        exclude: FRESH_MODULES,
      }),
      clientProject({ name: 'client-mocks', include: FRESH_MODULES }),
    ],
  },
})
