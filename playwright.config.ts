import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/chromium'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)

const desktop = { ...devices['Desktop Chrome'], channel: undefined }

export default defineConfig({
  testDir: 'e2e',
  // One server for the run, a browser per worker, two spec files at a time on 2 cores: the run
  // waits on the page and the server as well as computing (one worker: 7.6 min; two: 150 s;
  // three: 141 to 145 s on a fast day). On a slow day three left the cores so oversubscribed
  // (load average 12) that journeys and their servers' starts ran past their time limits; two
  // cost little on a fast day and keep them within. Specs that change demo data run their own
  // server on their own port (e2e/env.ts).
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A journey takes 5 to 20 s here; the limit is for one that hangs, on a machine that may be
  // three times slower than usual.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  // After the run, the spec files that took more than 30 s: where the time goes.
  reportSlowTests: { max: 10, threshold: 30_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    // A failed journey keeps its trace (actions, DOM snapshots, network, console) for
    // `npx playwright show-trace`, without the film of screenshots: recording that cost a fifth
    // of the run's CPU (the browser's compositor drew every frame for it), and a failure keeps
    // its own screenshot below. CI prints text only and nobody opens a trace there: recording
    // none takes 30 s of CPU off the run (376 s instead of 406 s, 194 s instead of 209 s wall).
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'desktop', use: desktop }],
})
