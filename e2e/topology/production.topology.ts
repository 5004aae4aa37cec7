// The production arrangement, end to end: two app processes from deploy/podclub@.service with
// deploy/podclub.env's settings, on PostgreSQL and Redis, behind Caddy from deploy/Caddyfile,
// reached over HTTPS and HTTP/2 by Chromium and by HTTP/2 clients. The tests share the one
// arrangement and run in order; what one leaves (open tabs, seats) the next may use.
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  type Browser,
  type BrowserContext,
  chromium,
  expect,
  type Page,
  test,
} from '@playwright/test'
import { count, eq, inArray } from 'drizzle-orm'
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium'
import { type Database, openPostgres } from '../../src/server/db/client'
import { outboxMessages, registrations, users } from '../../src/server/db/schema/index'
import { insertPodclub } from '../../src/server/features/podclubs/podclubs.fixtures'
import { hashPassword } from '../../src/server/lib/passwords'
import { openEventStream } from '../../src/server/testing/event-stream'
import { processAgent } from '../../src/server/testing/server-process'
import { startTestSmtp, type TestSmtp } from '../../src/server/testing/smtp'
import { type AppProcess, SiteAgent, type Stack, startStack } from './stack'

const BASE_PORT = Number(process.env.TOPOLOGY_PORT ?? 4400)
const PASSWORD = 'topology-password-1'
const api = (p: string) => `/api/v1${p}`
const takeSeat = (podclubId: number) => api(`/register/${podclubId}/`)

let stack: Stack
let smtp: TestSmtp
let database: Database
let browser: Browser | undefined
let tabsContext: BrowserContext | undefined
const tabs: Page[] = []
let browserHome: string | undefined

/** What the tests find in the database when they start. */
const seeded = {
  livePodclub: { id: 0, title: '' },
  crossPodclub: 0,
  contested: 0,
  reminders: [] as { id: number; title: string; members: string[] }[],
  /** Two groups of six writers, each group toggling its seat on a podclub of its own. */
  writerGroups: [] as { members: string[]; podclub: number }[],
  members: [] as string[],
}

// ---------------------------------------------------------------------------------------------
// Helpers

async function scrape(app: AppProcess, token = stack.metricsToken) {
  const res = await fetch(`${app.base}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(5_000),
  })
  return { status: res.status, text: await res.text() }
}

/** The sum of a metric's samples whose labels include `labels`. */
function metric(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))
    if (matches) sum += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return sum
}

async function metricOf(app: AppProcess, name: string, labels: Record<string, string> = {}) {
  const { status, text } = await scrape(app)
  if (status !== 200) throw new Error(`/metrics of ${app.base} answered ${status}`)
  return metric(text, name, labels)
}

/** A member logged in through the site, on a connection of its own. */
async function siteMember(username: string) {
  const agent = new SiteAgent(stack.origin, stack.caCert)
  const res = await agent.post(api('/login/'), { username, password: PASSWORD })
  expect(res.status, res.text).toBe(200)
  return agent
}

/** A member logged in at one process directly (as the proxy would reach it). */
async function processMember(app: AppProcess, username: string, address: string) {
  const agent = processAgent(app.base, { forwardedFor: address })
  const res = await agent.post(api('/login/'), { username, password: PASSWORD })
  expect(res.status, await res.text()).toBe(200)
  return agent
}

/** The card of the live podclub in a tab, by its title. */
const liveCard = (page: Page) => page.getByRole('article', { name: seeded.livePodclub.title })

/**
 * Watches every tab's card for `text` from now on; `times()` gives, for each tab, when the page
 * showed it (its own clock, the machine's), once every tab has.
 */
async function watchTabs(text: string) {
  await Promise.all(
    tabs.map((tab) =>
      tab.evaluate(
        ([title, wanted]) => {
          const w = window as unknown as { __shown?: Promise<number> }
          w.__shown = new Promise<number>((resolve) => {
            const check = () => {
              const card = Array.from(document.querySelectorAll('article')).find((a) =>
                a.textContent?.includes(title),
              )
              if (card?.textContent?.includes(wanted)) {
                observer.disconnect()
                resolve(Date.now())
              }
            }
            const observer = new MutationObserver(check)
            observer.observe(document.body, { subtree: true, childList: true, characterData: true })
          })
        },
        [seeded.livePodclub.title, text] as const,
      ),
    ),
  )
  return {
    /** When each tab showed it, in ms after `since`; fails after `timeoutMs`. */
    async after(since: number, timeoutMs = 10_000) {
      return Promise.all(
        tabs.map(async (tab) => {
          const at = await tab.evaluate(
            (ms) =>
              Promise.race([
                (window as unknown as { __shown: Promise<number> }).__shown,
                new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), ms)),
              ]),
            timeoutMs,
          )
          return at - since
        }),
      )
    },
  }
}

/** When each tab's stream brought the first podclub event after `since`, in ms after it. */
function eventWaits(since: number) {
  return Promise.all(
    tabs.map(async (tab) => {
      const at = await tab.evaluate(
        (t) =>
          (window as unknown as { __live: { events: number[] } }).__live.events.find(
            (e) => e >= t,
          ) ?? Number.NaN,
        since,
      )
      return at - since
    }),
  )
}

/** Every tab showed the change within `limitMs` (NaN: never). */
function expectWithin(waits: number[], limitMs: number, what: string) {
  for (const [i, wait] of waits.entries()) {
    expect(wait, `tab ${i + 1}: ${what} (all: ${waits.join(', ')} ms)`).toBeLessThan(limitMs)
  }
}

/** Each tab's EventSource as the page holds it (recorded by the init script below). */
type LiveState = { opened: number; errors: number; open: number }
const liveState = (page: Page) =>
  page.evaluate(() => {
    const live = (
      window as unknown as { __live: { sources: EventSource[]; opened: number; errors: number } }
    ).__live
    return {
      opened: live.opened,
      errors: live.errors,
      open: live.sources.filter((s) => s.readyState === EventSource.OPEN).length,
    } satisfies LiveState
  })

// ---------------------------------------------------------------------------------------------
// The arrangement

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  smtp = await startTestSmtp({ port: BASE_PORT + 25 })
  stack = await startStack({ basePort: BASE_PORT, processes: 2, smtpUrl: smtp.url })
  database = await openPostgres(stack.databaseUrl, { max: 4 })
  const { db } = database

  // Members with a low-cost hash (their logins run the same code, faster).
  const passwordHash = await hashPassword(PASSWORD, { memoryCost: 256, timeCost: 1 })
  const names = [
    'host.one',
    'cross.member',
    'live.member',
    ...Array.from({ length: 40 }, (_, i) => `taker.${i}`),
    ...Array.from({ length: 12 }, (_, i) => `writer.${i}`),
    ...Array.from({ length: 3 }, (_, i) => `reminded.${i}`),
  ]
  const made = await db
    .insert(users)
    .values(names.map((username) => ({ username, email: `${username}@example.com`, passwordHash })))
    .returning({ id: users.id, username: users.username })
  const idOf = (name: string) => made.find((u) => u.username === name)!.id
  seeded.members = names
  const host = idOf('host.one')
  const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600_000)

  const live = await insertPodclub(db, host, { episodeTitle: 'Live Wires', startsAt: inDays(1.5) })
  seeded.livePodclub = { id: live.id, title: live.episodeTitle }
  seeded.crossPodclub = (await insertPodclub(db, host, { startsAt: inDays(2) })).id
  seeded.contested = (await insertPodclub(db, host, { startsAt: inDays(2.5) })).id

  // Reminders due now: the 10-minute, the one-day and the one-week notice, three members each.
  const reminded = names.filter((n) => n.startsWith('reminded.'))
  for (const [title, startsAt] of [
    ['Ten Minutes To Go', new Date(Date.now() + 8 * 60_000)],
    ['Tomorrow Evening', inDays(0.8)],
    ['Next Week Already', inDays(4)],
  ] as const) {
    const p = await insertPodclub(db, host, { episodeTitle: title, startsAt })
    await db
      .insert(registrations)
      .values(reminded.map((n) => ({ podclubId: p.id, userId: idOf(n) })))
    seeded.reminders.push({ id: p.id, title, members: reminded })
  }

  // The writers of the kill test: six to each of two podclubs (never full).
  const writers = names.filter((n) => n.startsWith('writer.'))
  for (let g = 0; g < 2; g++) {
    const p = await insertPodclub(db, host, { startsAt: inDays(10 + g) })
    seeded.writerGroups.push({ members: writers.slice(g * 6, g * 6 + 6), podclub: p.id })
  }
})

/** How often each process should have ended so far: only the kill test ends one. */
const expectedExits = new Map<number, number>()

// No process ended unless a test ended it; a failed test keeps what the processes printed.
test.afterEach(async ({ browserName: _ }, testInfo) => {
  if (!stack) return
  const unexpected = stack.apps.filter((a) => a.exits !== (expectedExits.get(a.port) ?? 0))
  if (testInfo.status === testInfo.expectedStatus && unexpected.length === 0) return
  for (const app of stack.apps) {
    await testInfo.attach(`podclub@${app.port} output`, {
      body: app.output(),
      contentType: 'text/plain',
    })
  }
  await testInfo.attach('caddy output', {
    body: stack.proxyOutput().slice(-30_000),
    contentType: 'text/plain',
  })
  expect(
    unexpected.map((a) => a.port),
    'processes that ended unasked',
  ).toEqual([])
})

test.afterAll(async () => {
  await tabsContext?.close().catch(() => {})
  await browser?.close().catch(() => {})
  if (browserHome) rmSync(browserHome, { recursive: true, force: true })
  await database?.close().catch(() => {})
  try {
    await stack?.stop()
  } finally {
    await smtp?.stop()
  }
})

// ---------------------------------------------------------------------------------------------

test('the deploy files run as written: HTTPS with HTTP/2 through Caddy, processes on loopback behind it', async () => {
  const site = new SiteAgent(stack.origin, stack.caCert)
  try {
    expect(await site.client.alpn()).toBe('h2')
    const ready = await site.get('/readyz')
    expect(ready.status).toBe(200)
    // Compression is the app's: the API's JSON comes brotli'd from the process, through Caddy.
    const feed = await site.request('GET', api('/all_upcoming_podclubs/'), undefined, {
      'accept-encoding': 'br',
    })
    expect(feed.headers['content-encoding']).toBe('br')
  } finally {
    await site.close()
  }
  for (const app of stack.apps) {
    expect(app.isRunning()).toBe(true)
    expect(await app.readyz()).toBe(true)
  }
})

test('10 tabs of one browser each hold a live stream, over HTTP/2, and each shows a seat change within 1 s', async () => {
  test.setTimeout(90_000)
  // Chromium trusts Caddy's local CA the way a desktop does: the root in its certificate store
  // ($HOME/.pki/nssdb), nothing else loosened. And it resolves no name but localhost.
  browserHome = mkdtempSync(path.join(tmpdir(), 'podclub-topology-browser-'))
  const nssdb = path.join(browserHome, '.pki', 'nssdb')
  mkdirSync(nssdb, { recursive: true })
  const rootFile = path.join(browserHome, 'caddy-root.crt')
  writeFileSync(rootFile, stack.caCert)
  execFileSync('certutil', ['-d', `sql:${nssdb}`, '-N', '--empty-password'])
  execFileSync('certutil', [
    '-d',
    `sql:${nssdb}`,
    '-A',
    '-t',
    'C,,',
    '-n',
    'podclub-topology',
    '-i',
    rootFile,
  ])
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    env: { ...process.env, HOME: browserHome },
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost'],
  })
  tabsContext = await browser.newContext({ baseURL: stack.origin })
  // Counts what each page's EventSource does: opened (again after a reconnect) and errors.
  await tabsContext.addInitScript(() => {
    const live = { sources: [] as EventSource[], opened: 0, errors: 0, events: [] as number[] }
    Object.assign(window, { __live: live })
    const Native = window.EventSource
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init)
        live.sources.push(this)
        this.addEventListener('open', () => (live.opened += 1))
        this.addEventListener('error', () => (live.errors += 1))
        this.addEventListener('podclub', () => live.events.push(Date.now()))
      }
    }
  })
  for (let i = 0; i < 10; i++) {
    const tab = await tabsContext.newPage()
    // Over HTTP/1.1 the seventh would wait here: six connections, each held by a tab's stream.
    await tab.goto('/home', { timeout: 15_000 }).catch((err: Error) => {
      throw new Error(`tab ${i + 1} did not load: ${err.message}`)
    })
    await expect(liveCard(tab)).toContainText('9 seats left')
    tabs.push(tab)
  }
  for (const tab of tabs) {
    await expect.poll(async () => (await liveState(tab)).open, { timeout: 10_000 }).toBe(1)
    const protocol = await tab.evaluate(
      () =>
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
          .nextHopProtocol,
    )
    expect(protocol).toBe('h2')
  }
  // The ten streams are held by the two processes together (Caddy spreads them).
  const streams = await Promise.all(stack.apps.map((a) => metricOf(a, 'podclub_live_streams')))
  expect(streams[0]! + streams[1]!).toBeGreaterThanOrEqual(10)

  const member = await siteMember('live.member')
  try {
    const taking = await watchTabs('8 seats left')
    const since = Date.now()
    const taken = await member.post(takeSeat(seeded.livePodclub.id), {})
    expect(taken.status, taken.text).toBe(200)
    const took = await taking.after(since)
    const tookEvents = await eventWaits(since)
    expectWithin(took, 1_000, 'the seat taken')
    const giving = await watchTabs('9 seats left')
    const since2 = Date.now()
    const given = await member.post(takeSeat(seeded.livePodclub.id), {})
    expect(given.status, given.text).toBe(200)
    const gave = await giving.after(since2)
    expectWithin(gave, 1_000, 'the seat given back')
    console.log(
      `10 tabs: streams per process ${streams.join(' + ')}; from sending a seat change to each tab's stream event: ${tookEvents.join(', ')} ms, to its card showing it: ${took.join(', ')} ms; back: ${gave.join(', ')} ms`,
    )
  } finally {
    await member.close()
  }
})

test('a member logged in through one process is logged in on the other; a seat taken through one shows in the other at once', async () => {
  const [a, b] = stack.apps as [AppProcess, AppProcess]
  const member = await processMember(a, 'cross.member', '10.20.0.1')
  const onB = processAgent(b.base)
  for (const [name, value] of member.jar) onB.jar.set(name, value)
  const who = (await (await onB.get(api('/whoami/'))).json()) as {
    data: { isAuthenticated: boolean; user: { username: string } | null }
  }
  expect(who.data.isAuthenticated).toBe(true)
  expect(who.data.user?.username).toBe('cross.member')

  const stream = await openEventStream(`${b.base}${api('/events/')}`)
  try {
    expect(stream.status).toBe(200)
    const taken = await member.post(takeSeat(seeded.crossPodclub))
    expect(taken.status).toBe(200)
    const answer = ((await taken.json()) as { data: { registered: boolean; seats_left: number } })
      .data
    expect(answer).toEqual({ registered: true, seats_left: 8 })
    const sentAt = Date.now()
    // B's feed, read right after A's answer, shows it.
    const feed = (await (await onB.get(api('/all_upcoming_podclubs/'))).json()) as {
      data: { id: number; seats_left: number }[]
    }
    expect(feed.data.find((p) => p.id === seeded.crossPodclub)?.seats_left).toBe(8)
    // And B's stream carries it within a second.
    await expect
      .poll(
        () =>
          stream.events.find(
            (e) => e.event === 'podclub' && (e.data as { id: number }).id === seeded.crossPodclub,
          ),
        { timeout: 1_000, intervals: [20] },
      )
      .toBeTruthy()
    const event = stream.events.find(
      (e) => e.event === 'podclub' && (e.data as { id: number }).id === seeded.crossPodclub,
    )!
    expect((event.data as { seats_left: number }).seats_left).toBe(8)
    expect(event.receivedAt - sentAt).toBeLessThan(1_000)
  } finally {
    stream.close()
  }
})

test('40 members taking the last 9 seats at once, 20 through each process: 9 get one, none oversold', async () => {
  const takers = seeded.members.filter((n) => n.startsWith('taker.'))
  const agents = await Promise.all(
    takers.map((name, i) => processMember(stack.apps[i % 2]!, name, `10.30.0.${i + 1}`)),
  )
  const answers = await Promise.all(
    agents.map(async (agent) => {
      const res = await agent.post(takeSeat(seeded.contested))
      return { status: res.status, body: await res.text() }
    }),
  )
  const won = answers.filter((a) => a.status === 200)
  const refused = answers.filter((a) => a.status === 409)
  expect(won.length, JSON.stringify(answers.filter((a) => a.status !== 409))).toBe(9)
  expect(refused.length).toBe(31)
  for (const r of refused) expect(r.body).toContain('NO_SEATS_LEFT')
  const [{ seats }] = (await database.db
    .select({ seats: count() })
    .from(registrations)
    .where(eq(registrations.podclubId, seeded.contested))) as [{ seats: number }]
  expect(seats).toBe(9)
})

test('behind the proxy: X-Forwarded-For cannot be spoofed; /metrics answers the scraper at each process, never the public site', async () => {
  // 10 password-reset requests per address per 15 minutes: each says it comes from elsewhere,
  // for another address, and the 11th is refused all the same (Caddy writes X-Forwarded-For
  // afresh, and the processes believe 127.0.0.1 alone; the counters are shared in Redis).
  const site = new SiteAgent(stack.origin, stack.caCert)
  try {
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const res = await site.post(
        api('/auth/passwordreset/'),
        { email: `nobody.${i}@example.com` },
        { 'x-forwarded-for': `203.0.113.${i + 1}`, 'x-real-ip': `203.0.113.${i + 1}` },
      )
      statuses.push(res.status)
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429])

    const open = await site.get('/metrics')
    expect(open.status).toBe(404)
    const withToken = await site.request('GET', '/metrics', undefined, {
      authorization: `Bearer ${stack.metricsToken}`,
    })
    expect(withToken.status).toBe(404)
    expect(withToken.text).not.toContain('podclub_http_requests_total')
  } finally {
    await site.close()
  }
  for (const app of stack.apps) {
    const scraped = await scrape(app)
    expect(scraped.status).toBe(200)
    expect(scraped.text).toContain('podclub_http_requests_total')
    expect((await scrape(app, '')).status).not.toBe(200)
    expect((await scrape(app, 'wrong-token-wrong-token')).status).not.toBe(200)
  }
})

test('reminders and the outbox run once across both processes: no e-mail sent twice', async () => {
  test.setTimeout(90_000)
  // Each process looks for due reminders every 30 s from its start: wait for a run of each.
  for (const app of stack.apps) {
    await expect
      .poll(
        () =>
          metricOf(app, 'podclub_scheduled_runs_total', {
            task: 'send-due-reminders',
            outcome: 'ok',
          }),
        {
          timeout: 60_000,
          intervals: [1_000],
        },
      )
      .toBeGreaterThanOrEqual(1)
  }
  await expect
    .poll(() => metricOf(stack.apps[0]!, 'podclub_outbox_pending_messages'), { timeout: 30_000 })
    .toBe(0)

  for (const podclub of seeded.reminders) {
    for (const member of podclub.members) {
      const got = smtp.messages.filter(
        (m) =>
          m.to.includes(`${member}@example.com`) &&
          m.subject.startsWith(`Reminder: "${podclub.title}"`),
      )
      expect(got.length, `${member}'s reminders of ${podclub.title}`).toBe(1)
    }
  }
  const delivered = await database.db
    .select({ n: count() })
    .from(outboxMessages)
    .where(eq(outboxMessages.status, 'delivered'))
  const ids = smtp.messages.map((m) => m.messageId)
  expect(new Set(ids).size).toBe(ids.length)
  expect(smtp.messages.length).toBe(Number(delivered[0]!.n))
  // Both processes sent some of them: the outbox really ran in both.
  const byProcess = await Promise.all(
    stack.apps.map((a) => metricOf(a, 'podclub_outbox_deliveries_total')),
  )
  console.log(
    `e-mails: ${smtp.messages.length} delivered, once each; by process ${byProcess.join(' + ')}`,
  )
})

test('kill -9 of one process: the proxy sends requests to the other, no acknowledged write is lost, it comes back, the page streams again', async () => {
  test.setTimeout(90_000)
  const [victim, survivor] = stack.apps as [AppProcess, AppProcess]
  expect(await metricOf(victim, 'podclub_live_streams')).toBeGreaterThan(0)
  const tabsBefore = await Promise.all(tabs.map(liveState))

  // Six writers to each of two podclubs take and give back their seat, again and again, each
  // write with its own Idempotency-Key; a write answered 502/503 or not at all is sent again
  // with the same key, as the page does. Four readers read the feed. All through the site.
  const writers = await Promise.all(
    seeded.writerGroups.flatMap((g) =>
      g.members.map(async (name) => ({ name, podclub: g.podclub, agent: await siteMember(name) })),
    ),
  )
  const readers = Array.from({ length: 4 }, () => new SiteAgent(stack.origin, stack.caCert))
  const statuses = new Map<string, number>()
  /** The first answer of each status other than 200, to say what a failure was. */
  const firstSaid = new Map<string, string>()
  const note = (status: string, said = '') => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    if (status !== '200' && !firstSaid.has(status)) firstSaid.set(status, said.slice(0, 160))
  }
  /** Each writer's acknowledged answers in order: registered or not. */
  const answers = new Map<string, boolean[]>(writers.map((w) => [w.name, []]))
  let retried = 0
  const runFor = 8_000
  const killAt = 2_500
  const started = Date.now()
  let killedAt = 0
  const killer = new Promise<void>((resolve) =>
    setTimeout(() => {
      killedAt = Date.now()
      expectedExits.set(victim.port, 1)
      victim.kill9()
      resolve()
    }, killAt),
  )
  const write = async (w: (typeof writers)[number]) => {
    while (Date.now() - started < runFor) {
      const at = Date.now()
      const key = randomUUID()
      const tried: string[] = []
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) retried += 1
        if (attempt > 20) {
          throw new Error(
            `${w.name}: no answer after 20 tries, ${Date.now() - started} ms into the run, ` +
              `the kill at ${killedAt ? killedAt - started : 'not yet'} ms: ${tried.join(', ')}`,
          )
        }
        let status: string
        let said = ''
        try {
          const res = await w.agent.post(takeSeat(w.podclub), {}, { 'idempotency-key': key })
          status = String(res.status)
          said = res.text
          if (res.status === 200) {
            answers.get(w.name)!.push(res.json<{ data: { registered: boolean } }>().data.registered)
          }
        } catch (err) {
          status = `no answer (${(err as Error).message})`
        }
        note(status, said)
        tried.push(`${status} at ${Date.now() - started} ms`)
        if (status === '200') break
        if (status !== '502' && status !== '503') throw new Error(`${w.name}: answered ${status}`)
        await new Promise((r) => setTimeout(r, 200))
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 250 - (Date.now() - at))))
    }
  }
  const read = async (agent: SiteAgent) => {
    while (Date.now() - started < runFor) {
      try {
        const res = await agent.get(api('/all_upcoming_podclubs/'))
        note(String(res.status), res.text)
      } catch (err) {
        note(`no answer (${(err as Error).message})`)
      }
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  await Promise.all([killer, ...writers.map(write), ...readers.map(read)])
  await Promise.all([...writers.map((w) => w.agent.close()), ...readers.map((r) => r.close())])

  const sent = [...statuses.values()].reduce((a, b) => a + b, 0)
  const acknowledged = [...answers.values()].reduce((a, list) => a + list.length, 0)
  console.log(
    [
      `kill -9 of podclub@${victim.port} ${killedAt - started} ms into an ${runFor / 1000} s run`,
      `requests sent: ${sent}; answers by status: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`,
      `seat changes acknowledged: ${acknowledged}, sent again after a 502/503: ${retried}`,
      ...[...firstSaid].map(([status, said]) => `first ${status} said: ${said || '(nothing)'}`),
    ].join('\n'),
  )
  const errors = [...statuses].filter(([s]) => s !== '200')
  const errorCount = errors.reduce((a, [, n]) => a + n, 0)
  // The only errors: a 502 for a request in flight at the kill (at most one per client). Never a
  // 503: the other process was there all along (Caddy says 503 when it finds none to send to).
  for (const [status] of errors) expect(['502'], `status ${status}`).toContain(status)
  expect(errorCount).toBeLessThanOrEqual(writers.length + readers.length)

  // No acknowledged write is lost, and none ran twice: each writer's answers alternate (taken,
  // given back, taken...) and the database holds the seat exactly when the last answer said so.
  const rows = await database.db
    .select({ username: users.username })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .where(
      inArray(
        users.username,
        writers.map((w) => w.name),
      ),
    )
  const holding = new Set(rows.map((r) => r.username))
  let lost = 0
  for (const w of writers) {
    const list = answers.get(w.name)!
    expect(list.length, `${w.name}'s acknowledged seat changes`).toBeGreaterThanOrEqual(3)
    const alternating = list.every((registered, i) => registered === (i % 2 === 0))
    const last = list[list.length - 1]!
    if (!alternating || holding.has(w.name) !== last) lost += 1
    expect(list, `${w.name}'s answers alternate`).toEqual(list.map((_, i) => i % 2 === 0))
    expect(holding.has(w.name), `${w.name} holds the seat its last answer gave`).toBe(last)
  }

  // Restart=always brings it back; it serves again through the proxy.
  await victim.untilReady(30_000)
  expect(victim.starts).toBe(2)
  const site = new SiteAgent(stack.origin, stack.caCert)
  try {
    await expect
      .poll(
        async () => {
          await Promise.all(
            Array.from({ length: 6 }, () => site.get(api('/all_upcoming_podclubs/'))),
          )
          return metricOf(victim, 'podclub_http_requests_total', {
            route: '/api/v1/all_upcoming_podclubs/',
          })
        },
        { timeout: 20_000, intervals: [500] },
      )
      .toBeGreaterThan(0)
  } finally {
    await site.close()
  }

  // The tabs whose stream the killed process held reconnected by themselves, and every tab
  // shows the next seat change within a second.
  await expect
    .poll(async () => (await Promise.all(tabs.map(liveState))).every((s) => s.open === 1), {
      timeout: 15_000,
    })
    .toBe(true)
  const tabsAfter = await Promise.all(tabs.map(liveState))
  const reconnected = tabsAfter.filter((s, i) => s.opened > tabsBefore[i]!.opened).length
  expect(reconnected).toBeGreaterThan(0)
  const member = await siteMember('live.member')
  try {
    const taking = await watchTabs('8 seats left')
    const since = Date.now()
    expect((await member.post(takeSeat(seeded.livePodclub.id), {})).status).toBe(200)
    const took = await taking.after(since)
    // The stream works again in every tab. Not held to the 1 s of the ten-tab test: the write
    // may land on the process just started, whose first writes are slow (cold code and pool).
    expectWithin(took, 3_000, 'the seat change after the reconnect')
    const slowest = Math.max(...took)
    console.log(
      `writes lost or doubled: ${lost}; ${survivor.base} served on, podclub@${victim.port} came back (start ${victim.starts}); ` +
        `tabs whose stream reconnected: ${reconnected} of ${tabs.length}; the next seat change reached every tab in ${slowest} ms`,
    )
  } finally {
    await member.close()
  }

  // The mail of those seats went out once each as well.
  await expect
    .poll(() => metricOf(survivor, 'podclub_outbox_pending_messages'), { timeout: 30_000 })
    .toBeLessThanOrEqual(10)
  const ids = smtp.messages.map((m) => m.messageId)
  expect(new Set(ids).size).toBe(ids.length)
})
