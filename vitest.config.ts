import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

const src = (dir: string) => fileURLToPath(new URL(`./src/${dir}/`, import.meta.url))
const alias = [
  { find: /^#contract\//, replacement: src('contract') },
  { find: /^#server\//, replacement: src('server') },
  { find: /^#client\//, replacement: src('client') },
]
const serverTests = ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts']

const postgresUrl = process.env.TEST_DATABASE_URL
if (!postgresUrl) {
  console.warn(
    '\n[podclub] PostgreSQL suite skipped: TEST_DATABASE_URL is not set. ' +
      'The server tests ran on PGlite only.\n',
  )
}

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: serverTests,
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
