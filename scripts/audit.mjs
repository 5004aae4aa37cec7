// Lighthouse, as a phone sees podclub: builds the page if it is stale, starts the server on a
// fresh demo database, audits the main pages with Lighthouse's default mobile settings (simulated
// throttling) in Debian's Chromium, prints the scores and exits 1 when a page misses a goal.
//
//   npm run audit                 every page, the median of 3 runs each
//   npm run audit -- --runs 1     one run each (quicker, noisier)
//   npm run audit -- --only /about
//   npm run audit -- --cpu-slowdown 2
//                                 Lighthouse's CPU slowdown (default 4, for a high-end desktop);
//                                 its docs (throttling.md, "Calibrating the CPU slowdown") advise a
//                                 lower one on a slower machine, by the benchmark index each run
//                                 reports. The goals are checked against whichever was used.
//
// The JSON reports go to .lighthouse/ (git-ignored). Not part of `npm test`: it is a measurement.
import { spawn, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/chromium.ts'

const root = path.resolve(import.meta.dirname, '..')
const REPORT_DIR = path.join(root, '.lighthouse')
const DEMO_MEMBER = { username: 'maya.r', password: 'podclub-demo' }

/** What every audited page must reach (scores out of 100, times in ms). */
export const GOALS = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 95,
  lcp: 2_000,
  tbt: 150,
  cls: 0.05,
}

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string', multiple: true },
    'cpu-slowdown': { type: 'string', default: '4' },
  },
})
const runs = Math.max(1, Number(args.runs) || 1)
const cpuSlowdown = Number(args['cpu-slowdown'])
if (!(cpuSlowdown >= 1)) throw new Error('--cpu-slowdown takes a number of 1 or more')

/** Newest modification time under a folder. */
function newest(dir) {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs)
  }
  return latest
}

function buildIfStale() {
  const built = path.join(root, 'dist/client/index.html')
  const sources = Math.max(
    newest(path.join(root, 'src/client')),
    newest(path.join(root, 'src/contract')),
  )
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return
  console.log('Building the page (it is missing or older than its sources)...')
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

async function startDemoServer() {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'podclub-audit-'))
  const server = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      DEMO: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  })
  const deadline = Date.now() + 120_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`)
    if (Date.now() > deadline) throw new Error('the server was not ready within 120 s')
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break
    } catch {
      // still starting
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    baseUrl,
    async stop() {
      const exited = new Promise((r) => server.once('exit', r))
      process.kill(-server.pid, 'SIGTERM')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Logs a demo member in through the API; the Cookie header a browser would then send. */
async function memberCookie(baseUrl) {
  const who = await fetch(`${baseUrl}/api/v1/whoami/`)
  const csrf = /csrftoken=([^;]+)/.exec(who.headers.get('set-cookie') ?? '')?.[1]
  const login = await fetch(`${baseUrl}/api/v1/login/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrftoken': csrf,
      cookie: `csrftoken=${csrf}`,
    },
    body: JSON.stringify(DEMO_MEMBER),
  })
  if (!login.ok) throw new Error(`demo login failed: ${login.status} ${await login.text()}`)
  const session = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => /sessionid=/.test(c))
  return `csrftoken=${csrf}; ${session}`
}

async function upcomingPodclubId(baseUrl) {
  const res = await fetch(`${baseUrl}/api/v1/all_upcoming_podclubs/`)
  const { data } = await res.json()
  if (!data?.length) throw new Error('the demo database has no upcoming podclub')
  return data[0].id
}

function summarise(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100)
  const metric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  }
}

function misses(s) {
  const out = []
  for (const key of ['performance', 'accessibility', 'best-practices', 'seo']) {
    if (s[key] < GOALS[key]) out.push(`${key} ${s[key]} < ${GOALS[key]}`)
  }
  if (!(s.lcp <= GOALS.lcp)) out.push(`LCP ${Math.round(s.lcp)} ms > ${GOALS.lcp}`)
  if (!(s.tbt <= GOALS.tbt)) out.push(`TBT ${Math.round(s.tbt)} ms > ${GOALS.tbt}`)
  if (!(s.cls <= GOALS.cls)) out.push(`CLS ${s.cls.toFixed(3)} > ${GOALS.cls}`)
  return out
}

buildIfStale()
const server = await startDemoServer()
let chrome
const rows = []
try {
  const cookie = await memberCookie(server.baseUrl)
  const podclubId = await upcomingPodclubId(server.baseUrl)
  const pages = [
    { name: '/home (visitor)', path: '/home' },
    { name: '/home (member)', path: '/home', cookie },
    { name: `/podclubs/${podclubId}`, path: `/podclubs/${podclubId}` },
    { name: '/about', path: '/about' },
    { name: '/login', path: '/login' },
  ].filter((p) => !args.only || args.only.includes(p.path))

  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_ARGS,
  })
  mkdirSync(REPORT_DIR, { recursive: true })
  for (const page of pages) {
    const results = []
    const audit = async () =>
      (
        await lighthouse(`${server.baseUrl}${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          throttling: { cpuSlowdownMultiplier: cpuSlowdown },
          ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
        })
      ).lhr
    for (let run = 1; run <= runs; run++) {
      let lhr = await audit()
      // Lighthouse sometimes fails to record a trace (NO_NAVSTART on a busy machine): up to
      // twice more.
      for (let retry = 0; lhr.runtimeError && retry < 2; retry++) lhr = await audit()
      if (lhr.runtimeError) throw new Error(`${page.name}: ${lhr.runtimeError.message}`)
      results.push(lhr)
    }
    // The median run by performance score, as Lighthouse itself recommends for noisy machines.
    results.sort((a, b) => a.categories.performance.score - b.categories.performance.score)
    const median = results[Math.floor((results.length - 1) / 2)]
    const file = `${page.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.json`
    writeFileSync(path.join(REPORT_DIR, file), JSON.stringify(median, null, 2))
    rows.push({
      page: page.name,
      ...summarise(median),
      tbtRuns: results.map((r) => Math.round(summarise(r).tbt)).sort((a, b) => a - b),
    })
  }
} finally {
  await chrome?.kill()
  await server.stop()
}

const header =
  '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS | benchmark index |'
console.log(
  `\nLighthouse mobile, CPU slowdown ${cpuSlowdown}x, median of ${runs} run(s) per page:\n`,
)
console.log(header)
console.log('|---|---|---|---|---|---|---|---|---|')
let failed = false
for (const r of rows) {
  console.log(
    `| ${r.page} | ${r.performance} | ${r.accessibility} | ${r['best-practices']} | ${r.seo} | ` +
      `${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ` +
      `${Math.round(r.benchmarkIndex)} |`,
  )
}
if (runs > 1) {
  console.log('\nTBT of each run (ms), lowest first:')
  for (const r of rows) console.log(`- ${r.page}: ${r.tbtRuns.join(', ')}`)
}
for (const r of rows) {
  const missed = misses(r)
  if (missed.length) {
    failed = true
    console.log(`\n${r.page} misses: ${missed.join(', ')}`)
  }
}
console.log(
  `\nGoals: performance ≥ ${GOALS.performance}, accessibility ${GOALS.accessibility}, best practices ${GOALS['best-practices']}, SEO ≥ ${GOALS.seo}, LCP ≤ ${GOALS.lcp / 1000} s, TBT ≤ ${GOALS.tbt} ms, CLS ≤ ${GOALS.cls}. Reports: .lighthouse/`,
)
process.exit(failed ? 1 : 0)
