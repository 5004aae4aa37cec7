import { defineConfig } from '@playwright/test'

/**
 * `npm run test:topology`: the production arrangement of deploy/ (two app processes from
 * podclub@.service behind Caddy from the Caddyfile, on PostgreSQL and Redis), one spec file whose
 * tests share it. Apart from `npm run test:e2e`, which runs one process on PGlite.
 */
export default defineConfig({
  testDir: '.',
  testMatch: /\.topology\.ts$/,
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: 'list',
  globalSetup: './global-setup.ts',
})
