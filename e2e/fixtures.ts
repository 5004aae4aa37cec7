import {
  type APIRequestContext,
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  expect,
  type Page,
  type PlaywrightWorkerArgs,
  type Response,
} from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type AxeCore from 'axe-core'
import { formatClubDateTime } from '../src/contract/club-time'
import type { ReceivedMail } from '../src/server/testing/smtp'
import { e2e } from './env'

/** A message the test SMTP server received, as the e2e inbox serves it (JSON). */
export type Mail = ReceivedMail

/** Mail the server sent through SMTP during this run. */
export async function readInbox(): Promise<Mail[]> {
  return (await fetch(e2e.inboxUrl)).json() as Promise<Mail[]>
}

export async function waitForMail(
  predicate: (m: Mail) => boolean,
  timeoutMs = 15_000,
): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const found = (await readInbox()).find(predicate)
    if (found) return found
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('no matching mail arrived')
}

/** The CSRF token the server gave this API context (a browser context's `request` included). */
async function csrfOf(request: APIRequestContext) {
  const { cookies } = await request.storageState()
  return cookies.find((c) => c.name === 'csrftoken')!.value
}

/**
 * Logs an API context in through the API, as the login screen does: the session cookie lands in
 * its storage. A page's `request` shares its browser context's cookies, so that logs the page in.
 */
export async function logInRequest(request: APIRequestContext, username: string, password: string) {
  await request.get('/api/v1/whoami/')
  const login = await request.post('/api/v1/login/', {
    headers: { 'X-CSRFToken': await csrfOf(request) },
    data: { username, password },
  })
  expect(login.status(), await login.text()).toBe(200)
}

let seq = 0
export type Member = { username: string; email: string; password: string }

/** Signs a new member up through the API with the club code, as the register screen would. */
export async function createMember(request: APIRequestContext): Promise<Member> {
  seq += 1
  // Workers that sign members up side by side keep their names apart by the worker's index.
  const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0)
  const username = `e2e.${Date.now().toString(36)}.${worker}.${seq}`
  const member = { username, email: `${username}@example.com`, password: 'password-e2e-1' }
  await request.get('/api/v1/whoami/')
  const res = await request.post('/api/v1/signup/', {
    headers: {
      'X-CSRFToken': await csrfOf(request),
      'X-Forwarded-For': `10.${77 + worker}.${seq >> 8}.${seq & 255}`,
    },
    data: { ...member, inviteCode: e2e.clubCode, city: 'Brooklyn', source: 'e2e' },
  })
  expect(res.status(), await res.text()).toBe(201)
  // Leave the API context logged out: the browser logs in on its own.
  await request.dispose()
  return member
}

/**
 * An API context logged in as `username`, sending the CSRF header on every write; on the run's
 * server unless `baseUrl` names another (a spec's own demo server).
 */
export async function apiAs(
  playwright: PlaywrightWorkerArgs['playwright'],
  username: string,
  password: string,
  baseUrl = e2e.baseUrl,
) {
  const request = await playwright.request.newContext({ baseURL: baseUrl })
  await logInRequest(request, username, password)
  return {
    request,
    async post(path: string, data?: unknown) {
      return request.post(`/api/v1${path}`, {
        headers: { 'X-CSRFToken': await csrfOf(request) },
        data,
      })
    },
  }
}

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * An upcoming podclub three days out, hosted by the demo's bea.n, made through the control
 * panel's API, with `seatHolders` (nine fill it) registered by the admin. Needs `DEMO=1`; on the
 * run's server unless `baseUrl` names another.
 */
export async function createPodclub(
  playwright: PlaywrightWorkerArgs['playwright'],
  {
    title,
    seatHolders = [],
    baseUrl = e2e.baseUrl,
  }: { title: string; seatHolders?: string[]; baseUrl?: string },
) {
  const admin = await apiAs(playwright, e2e.admin.username, e2e.admin.password, baseUrl)
  const created = await admin.post('/controlpanel/podclubs/', {
    title,
    podcastName: 'Radiolab',
    keywordOne: 'queues',
    keywordTwo: 'patience',
    keywordThree: 'luck',
    linkOne: 'https://example.com/the-seat-that-came-back',
    scheduledStart: formatClubDateTime(new Date(Date.now() + 3 * DAY_MS)),
    description: 'An episode about waiting in line, and who gets the next chair when one frees up.',
    podmeisterNote: 'I kept thinking about the bakery ticket machine the whole way through.',
    location: 'zoom',
    podmeister: 'bea.n',
    zoomLink: '',
  })
  expect(created.status(), await created.text()).toBe(201)
  const { data } = (await created.json()) as { data: { id: number } }
  for (const username of seatHolders) {
    const res = await admin.post(`/register_admin/${data.id}/${encodeURIComponent(username)}/`)
    expect(res.status(), await res.text()).toBe(200)
  }
  await admin.request.dispose()
  return { id: data.id, title }
}

/** Demo members (DEMO=1) who can fill eight seats of a podclub bea.n hosts. */
export const DEMO_SEAT_FILLERS = [
  'maya.r',
  'jon.b',
  'priya',
  'theo.k',
  'ana.lu',
  'sam.w',
  'ren',
  'dee.o',
]

/** A screen the browser renders itself (not server-rendered, docs/decisions/027). */
const BROWSER_RENDERED_PAGE = '/waitlist'

/**
 * Opens `path` through the page's own router, from a screen the browser rendered: the screen asks
 * the API from the page, where the spec's `page.route` answers, instead of arriving rendered by
 * the server.
 */
export async function openInPageRouter(page: Page, path: string) {
  await page.goto(BROWSER_RENDERED_PAGE)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.evaluate((to) => {
    window.history.pushState(null, '', to)
    window.dispatchEvent(new PopStateEvent('popstate'))
  }, path)
  await expect(page).toHaveURL(path)
}

/**
 * The toasts on screen, as Radix lists them in its 'Notifications' region, for as long as each
 * shows. A toast is looked for there, and neither by its text in the whole page (a refused page's
 * heading says what its toast says, and both show while the router moves on from it) nor by the
 * role `status`: that is Radix's announcement for screen readers, which lasts one second.
 */
export function toasts(page: Page) {
  return page.getByRole('region', { name: /notifications/i }).getByRole('listitem')
}

/** The toast on screen that says `text` (its title, say). */
export function toastWith(page: Page, text: string) {
  return toasts(page).filter({ hasText: text })
}

/**
 * Logs in and opens `path` (the feed unless told): for journeys about what a member does once in.
 * The login screen's own journeys walk it with `loginThroughPage`; rendering it again for every
 * other journey cost a page load each.
 */
export async function logIn(page: Page, username: string, password: string, path = '/home') {
  await logInRequest(page.request, username, password)
  await page.goto(path)
}

/** Logs in through the login screen. */
export async function loginThroughPage(page: Page, username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: /log ?in/i }).click()
  await expect(page).toHaveURL(/\/home/)
}

/**
 * A page load ends, for a spec, once the page runs (`<html data-ready>`, set by the root layout):
 * a page the server drew shows its buttons before its code has taken them over, and a click in
 * between would be lost, as it would for a person. An answer that is not a page (JSON, a
 * calendar) is not waited for.
 */
async function untilReady(page: Page, answer: Response | null) {
  // A page answered 404 or 403 runs too: only what is not a page is not waited for.
  if (!answer?.headers()['content-type']?.startsWith('text/html')) return
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 })
}

const waitingPages = new WeakSet<Page>()
/**
 * `goto` and `reload` of `page` end once the page runs (untilReady); not in a context whose
 * `options` turn scripts off, where the page never runs.
 */
function waitForReady(page: Page, options?: BrowserContextOptions): Page {
  if (options?.javaScriptEnabled === false || waitingPages.has(page)) return page
  waitingPages.add(page)
  const goto = page.goto.bind(page)
  const reload = page.reload.bind(page)
  page.goto = async (url, options) => {
    const answer = await goto(url, options)
    if (options?.waitUntil !== 'commit') await untilReady(page, answer)
    return answer
  }
  page.reload = async (options) => {
    const answer = await reload(options)
    await untilReady(page, answer)
    return answer
  }
  return page
}

/** Every page `context` (made with `options`) opens waits for its page to run. */
function waitForReadyIn(context: BrowserContext, options?: BrowserContextOptions): BrowserContext {
  const newPage = context.newPage.bind(context)
  context.newPage = async () => waitForReady(await newPage(), options)
  return context
}

/**
 * Fails a spec on any error the page logs, so a broken screen can't pass quietly; and every page
 * a spec opens (its own, a second member's in a context of their own) waits for its page to run.
 */
export const test = base.extend<{ pageErrors: string[] }>({
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser)
      browser.newContext = async (options) => waitForReadyIn(await newContext(options), options)
      const newPage = browser.newPage.bind(browser)
      browser.newPage = async (options) => waitForReady(await newPage(options), options)
      await use(browser)
    },
    { scope: 'worker' },
  ],
  context: async ({ context }, use) => {
    await use(waitForReadyIn(context))
  },
  page: async ({ page }, use) => {
    // E2E_CPU_SLOWDOWN=8: the page runs as on a machine that many times slower (README, Set up).
    const rate = Number(process.env.E2E_CPU_SLOWDOWN ?? 1)
    if (rate > 1) {
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
    }
    await use(waitForReady(page))
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      page.on('pageerror', (err) => errors.push(err.message))
      page.on('console', (msg) => {
        // Chromium also logs every 4xx answer as an error; those are expected in refusal tests.
        if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
          errors.push(msg.text())
      })
      await use(errors)
      expect(errors, 'errors in the page').toEqual([])
    },
    { auto: true },
  ],
})
export { expect }

/** The password of the demo seed's members (src/server/features/demo/demo.seed.ts). */
export const DEMO_PASSWORD = 'podclub-demo'

/** How long a demo server may take to seed and answer: on a busy machine, tens of seconds. */
const DEMO_START_MS = 90_000

/**
 * A demo server of the spec's own on `port` (`e2e.ownServerPort`: the demo data, completed
 * podclubs with attendees, hindsights and a chat log, in a fresh PGlite folder), for specs that
 * change demo data or must not see other journeys' changes, started before
 * its tests, with time to seed on a busy machine, and stopped after them. `settings`, read as it
 * starts, adds to its environment (an SMTP server's address, say).
 */
export function useDemoServer(port: number, settings: () => Record<string, string> = () => ({})) {
  let demo: Awaited<ReturnType<typeof startDemoServer>> | undefined
  test.beforeAll(async () => {
    test.setTimeout(DEMO_START_MS + 10_000)
    demo = await startDemoServer(port, settings())
  })
  test.afterAll(async () => {
    await demo?.stop()
  })
}

async function startDemoServer(port: number, settings: Record<string, string>) {
  const { spawn } = await import('node:child_process')
  const { mkdtemp, rm } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const path = await import('node:path')
  const { answersOk, waitUntil } = await import('../src/server/testing/wait')
  const { serverCommand } = await import('../src/server/testing/server-process')
  const baseUrl = `http://127.0.0.1:${port}`
  const dataDir = await mkdtemp(path.join(tmpdir(), 'podclub-e2e-demo-'))
  const server = spawn(process.execPath, serverCommand, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DEMO: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      ADMIN_USERNAME: e2e.admin.username,
      ADMIN_PASSWORD: e2e.admin.password,
      ADMIN_EMAIL: e2e.admin.email,
      CLUB_INVITE_CODE: e2e.clubCode,
      LOG_LEVEL: 'warn',
      ...settings,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    await waitUntil(
      async () => {
        if (server.exitCode !== null)
          throw new Error(`the demo server exited with ${server.exitCode}`)
        return answersOk(`${baseUrl}/readyz`)
      },
      DEMO_START_MS,
      'demo server ready',
    )
  } catch (err) {
    // Not left running behind a spec that failed: it would take the cores from every other.
    server.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
    throw err
  }
  return {
    baseUrl,
    async stop() {
      // One that already exited (its port was taken, say) is not waited for.
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve))
        server.kill('SIGTERM')
        await exited
      }
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** axe-core's script, read once per worker and put into each page (document) that is checked. */
let axeSource: string | undefined
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * Runs axe-core on the page and fails on any violation, naming the rule and the elements. It
 * waits for animations that end (a toast fading in or out) to finish first: mid-fade, text is
 * half transparent and its contrast is not the one a reader gets. Endless ones (a spinner) run on.
 * `wcagOnly` keeps to WCAG's rules (2.0 to 2.2, A and AA), for an open menu: it is drawn in a
 * layer of its own outside the page's landmarks, which axe's best-practice rules would count
 * against the page.
 *
 * axe runs in the page itself, put there once per document, and reports violations only: the
 * page has no frames to gather from, so the wrapper that runs each frame and then merges the
 * results in a blank page of its own (two-thirds of each check's time, and a renderer
 * each) would add nothing.
 */
export async function expectNoAxeViolations(
  page: Page,
  what: string,
  options: {
    wcagOnly?: boolean
    /** Only what is inside this element (an open menu), the page around it checked before. */
    within?: string
  } = {},
) {
  // Settled for a few frames in a row: an element put in a moment later (a toast) starts its own.
  const settled = await page.evaluate(async () => {
    const calm = () =>
      document
        .getAnimations()
        .every(
          (a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity,
        )
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
    const until = performance.now() + 5_000
    for (let calmFrames = 0; calmFrames < 4; calmFrames = calm() ? calmFrames + 1 : 0) {
      if (performance.now() > until) return false
      await frame()
    }
    return true
  })
  expect(settled, `the animations on ${what} end`).toBe(true)
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= await readFile(
      createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      'utf8',
    )
    await page.evaluate(axeSource)
  }
  expect(await page.locator('iframe').count(), `${what} has no frames for axe to miss`).toBe(0)
  const violations = await page.evaluate(
    async ({ runOnly, within }) => {
      const { axe } = window as unknown as { axe: typeof AxeCore }
      const results = await axe.run(within ? { include: [[within]] } : document, {
        resultTypes: ['violations'],
        ...(runOnly ? { runOnly: { type: 'tag', values: runOnly } } : {}),
      })
      return results.violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      )
    },
    { runOnly: options.wcagOnly ? WCAG_TAGS : null, within: options.within ?? null },
  )
  expect(violations, `axe violations on ${what}`).toEqual([])
}
