import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { Redis } from 'ioredis'
import pg from 'pg'
import { defineConfig } from 'vitest/config'

const src = (dir: string) => fileURLToPath(new URL(`./src/${dir}/`, import.meta.url))
const alias = [
  { find: /^#contract\//, replacement: src('contract') },
  { find: /^#server\//, replacement: src('server') },
  { find: /^#client\//, replacement: src('client') },
]
const serverTests = ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts']

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

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
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
                include: ['src/server/**/*.test.ts'],
                // Only what talks to the database: the data folder lock and the process test are
                // about PGlite, and lib/ has no queries.
                exclude: [
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
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['src/client/testing/setup.ts'],
          // A whole form walked through with user-event takes seconds on a busy 2-core machine.
          testTimeout: 15_000,
        },
      },
    ],
  },
})
