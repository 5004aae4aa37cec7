// When a page first paints, and when React has hydrated it, as a phone on a slow network sees it:
// Chromium with Lighthouse's mobile network (150 ms, 1.6 Mbit/s down, 750 kbit/s up) and its CPU
// slowed 4×, at 375 px. Against a running server (`npm start`, or two builds side by side):
//
//   npm run first-paint -- http://127.0.0.1:3000 [http://127.0.0.1:3001] --paths /home,/login --runs 3
//
// Each load prints the first contentful paint and the moment the page's root became React's
// (ms from navigation). Several servers are loaded in turn, so a slow minute hits them alike.
/* global document, window, requestAnimationFrame -- they run in the page */
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium.ts'

const { values, positionals: servers } = parseArgs({
  allowPositionals: true,
  options: {
    paths: { type: 'string', default: '/home,/podclubs/4,/login,/about' },
    runs: { type: 'string', default: '3' },
  },
})
if (servers.length === 0) throw new Error('name at least one server, e.g. http://127.0.0.1:3000')

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
for (const path of values.paths.split(',')) {
  for (let run = 0; run < Number(values.runs); run++) {
    for (const server of servers) {
      const context = await browser.newContext({ viewport: { width: 375, height: 800 } })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: 1.6e6 / 8,
        uploadThroughput: 0.75e6 / 8,
      })
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
      await page.addInitScript(() => {
        const check = () => {
          const root = document.getElementById('root')
          if (root && Object.keys(root).some((key) => key.startsWith('__reactContainer'))) {
            window.hydratedAt = performance.now()
          } else requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      })
      await page.goto(new URL(path, server).href, { waitUntil: 'load' })
      await page.waitForFunction(() => window.hydratedAt, null, { timeout: 30_000 })
      const { fcp, hydrated } = await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        hydrated: window.hydratedAt,
      }))
      console.log(
        `${server}${path}: first paint ${Math.round(fcp)} ms, hydrated ${Math.round(hydrated)} ms`,
      )
      await context.close()
    }
  }
}
await browser.close()
