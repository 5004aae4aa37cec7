import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
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

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: serverTests,
          // `*.pg.test.ts` are about the PostgreSQL server alone (pool limits): that run only.
          exclude: ['**/*.pg.test.ts'],
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
                  'src/server/main.test.ts',
                  'src/server/lib/**',
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
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['src/client/testing/setup.ts'],
        },
      },
    ],
  },
})
