// npm run bench [-- --db postgres] [--duration 10] [--connections 50]
// npm run bench -- --topology: through Caddy, one app process against two (bench-topology.ts)
//
// Measures the busiest reads against a bare reference route that answers a constant JSON body
// the size of the feed, on a fresh database holding 60 upcoming podclubs (some with seats
// taken): the feed for a visitor and for a member, a podclub's detail, the splash stats, whoami
// and the profile of a logged-in member; the server-rendered pages as a browser gets them (HTML,
// brotli): home, a podclub, about and login for a visitor, home and a podclub for a member; the
// seat change itself (10 members taking and giving back seats of two podclubs, nothing else asked
// of the server); then the feed again while those 10 connections change seats, checking that every
// read of the feed and of a visitor's podclub page after a seat change shows it. The server runs
// in a child process (as `npm start` would, on PGlite in a temporary DATA_DIR, or on a fresh
// database of the PostgreSQL at BENCH_DATABASE_URL), serving the built page (built first when
// missing or older than its sources, as `npm start` does); this process drives the load with
// autocannon (50 keep-alive connections for 10 s a route by default). Goal: each read >= 0.5 x the
// reference's req/s with p99 < 50 ms; a member's page >= 0.05 x with p99 < 100 ms; the seat
// changes p99 < 50 ms on PostgreSQL, < 100 ms on PGlite (whose one connection runs every write in
// turn), alone and while the feed is read. The server's event loop delay while seats change and
// the feed is read is printed too.
// `-- --only <text>` measures the reference and the rows whose label holds the text.
import { spawn } from 'node:child_process'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { getWhoamiEndpoint, loginEndpoint } from '../src/contract/auth'
import { API_PREFIX } from '../src/contract/endpoint'
import { getPodclubDetailEndpoint } from '../src/contract/podclub-detail'
import {
  getSplashStatsEndpoint,
  listUpcomingPodclubsEndpoint,
  toggleRegistrationEndpoint,
} from '../src/contract/podclubs'
import { buildPath } from '../src/contract/path'
import { getProfileEndpoint } from '../src/contract/profile'
import { clientDistDir, renderModuleFile } from '../src/server/app'
import { buildBenchApp, openBenchDatabase } from './bench-database'
import { build } from './build.mjs'

type Options = {
  db: 'pglite' | 'postgres'
  duration: number
  connections: number
  only: string | undefined
}

function readOptions(argv: string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const db = value('db') ?? 'pglite'
  if (db !== 'pglite' && db !== 'postgres') throw new Error('--db is pglite or postgres')
  return {
    db,
    duration: Number(value('duration') ?? 10),
    connections: Number(value('connections') ?? 50),
    only: value('only'),
  }
}

const api = (path: string) => `${API_PREFIX}${path}`
const FEED_PATH = api(listUpcomingPodclubsEndpoint.path)
const BENCH_PASSWORD = 'bench-password-1'
/** Members who take and give back seats during the mixed run, one per connection. */
const TOGGLERS = 10
const REFERENCE_PATH = '/bench/reference/'
/** The server's event loop delay since the last call (p50, p99, longest, in ms), and a new start. */
const EVENT_LOOP_PATH = '/bench/event-loop/'
/** What a browser says it accepts: the pages go out compressed, as they would to one. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd'

// ---------------------------------------------------------------------------------------------
// The server (child process)

async function serve(options: Options) {
  const { podclubs, registrations, users } = await import('../src/server/db/schema/index')
  const { hashPassword } = await import('../src/server/lib/passwords')
  const { insertPodclub } = await import('../src/server/features/podclubs/podclubs.fixtures')

  const { database, drop } = await openBenchDatabase(options.db)
  const { db } = database

  // 60 upcoming podclubs with real-sized texts; every third one has seats taken, some are full.
  const people = await db
    .insert(users)
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        username: `bench.member${i}`,
        email: `bench${i}@example.com`,
        passwordHash: 'not-a-login',
        city: ['Brooklyn', 'Queens', 'Hoboken'][i % 3]!,
      })),
    )
    .returning({ id: users.id })
  const description =
    'A conversation about how ideas spread, why some of them stick, and what we do with them ' +
    'once they have taken hold. Bring one moment from the episode that surprised you and one ' +
    'you disagreed with; we will start from those and see where the hour takes us.'
  const note =
    'I picked this one because it changed how I listen to everyone around me, and I want to ' +
    'hear whether it does the same for you.'
  for (let i = 0; i < 60; i++) {
    const podclub = await insertPodclub(db, people[i % people.length]!.id, {
      episodeTitle: `Episode ${i + 1}: The Sound of a Shrinking Room`,
      startsAt: new Date(Date.now() + (i + 2) * 24 * 3600 * 1000),
      location: i % 2 ? 'zoom' : 'nyc',
      description,
      podmeisterNote: note,
      keywordOne: 'attention',
      keywordTwo: 'cities',
      keywordThree: 'habits',
      linkOne: `https://podcasts.apple.com/us/podcast/episode-${i}`,
      linkTwo: `https://open.spotify.com/episode/${i}`,
    })
    if (i % 3 === 0) {
      const taken = people
        .filter((p) => p.id !== people[i % people.length]!.id)
        .slice(0, (i % 10) + 1)
      await db
        .insert(registrations)
        .values(taken.slice(0, 9).map((p) => ({ podclubId: podclub.id, userId: p.id })))
    }
  }
  // A cancelled one the feed leaves out. Every write above raised the feed version itself.
  await insertPodclub(db, people[0]!.id, { status: 'cancelled' })

  // Members who log in: one reads (with seats of its own, for its profile), the others toggle.
  const passwordHash = await hashPassword(BENCH_PASSWORD)
  const loggedIn = await db
    .insert(users)
    .values(
      ['bench.reader', ...Array.from({ length: TOGGLERS + 1 }, (_, i) => `bench.toggler${i}`)].map(
        (username) => ({ username, email: `${username}@example.com`, passwordHash }),
      ),
    )
    .returning({ id: users.id })
  const upcoming = await db.select({ id: podclubs.id }).from(podclubs).orderBy(podclubs.id)
  await db
    .insert(registrations)
    .values(upcoming.slice(1, 6).map((p) => ({ podclubId: p.id, userId: loggedIn[0]!.id })))
  // Two podclubs the togglers share (five each, so nobody finds one full), and one the
  // freshness checker toggles alone.
  const later = (days: number) => ({ startsAt: new Date(Date.now() + days * 24 * 3600 * 1000) })
  const [contestedA, contestedB, quiet] = await Promise.all([
    insertPodclub(db, people[1]!.id, later(90)),
    insertPodclub(db, people[2]!.id, later(91)),
    insertPodclub(db, people[3]!.id, later(92)),
  ])

  // As `npm start` serves it: the built page, its first screen rendered here.
  const app = await buildBenchApp(
    database,
    {},
    { serveClient: true, clientDir: clientDistDir, renderModule: renderModuleFile },
  )
  let referenceBody = Buffer.alloc(0)
  app.get(REFERENCE_PATH, { schema: { hide: true } }, (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(referenceBody)
  })
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  app.get(EVENT_LOOP_PATH, { schema: { hide: true } }, (_request, reply) => {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10
    const delay = { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) }
    loop.reset()
    void reply.send(delay)
  })
  await app.ready()
  const first = await app.inject({ method: 'GET', url: FEED_PATH })
  if (first.statusCode !== 200) throw new Error(`the feed answered ${first.statusCode}`)
  referenceBody = Buffer.from(first.body)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const list = JSON.parse(first.body) as { data: { seats_left: number }[] }
  const ready: Ready = {
    port,
    size: Buffer.byteLength(first.body),
    count: list.data.length,
    withSeats: list.data.filter((p) => p.seats_left < 9).length,
    detailId: upcoming[1]!.id,
    contestedIds: [contestedA.id, contestedB.id],
    quietId: quiet.id,
  }
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`)
  const stop = async () => {
    await app.close()
    await database.close()
    await drop()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
}

// ---------------------------------------------------------------------------------------------
// The load generator (this process)

type Ready = {
  port: number
  size: number
  count: number
  withSeats: number
  detailId: number
  contestedIds: [number, number]
  quietId: number
}

type Result = { rps: number; p50: number; p99: number; requests: number; errors: number }

/** Two loads run side by side, as one: their rates add up, the slower latencies stand. */
function combined(a: Result, b: Result): Result {
  return {
    rps: a.rps + b.rps,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
  }
}

/** A member's browser: the cookies and the CSRF token to send after logging in. */
type Login = { cookie: string; csrf: string }

/** Logs `username` in through the API, as the page does. */
async function login(base: string, username: string): Promise<Login> {
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const at = pair.indexOf('=')
      jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
  }
  keep(await fetch(`${base}${api(getWhoamiEndpoint.path)}`))
  const res = await fetch(`${base}${api(loginEndpoint.path)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrftoken': jar.get('csrftoken') ?? '',
    },
    body: JSON.stringify({ username, password: BENCH_PASSWORD }),
  })
  if (!res.ok) throw new Error(`login of ${username} failed: ${res.status} ${await res.text()}`)
  keep(res)
  return {
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    csrf: jar.get('csrftoken') ?? '',
  }
}

/**
 * Waits until the server has worked off what a load left queued (a slow row ends with one request
 * in flight per connection, seconds of work for pages rendered each time), so the next row is
 * measured on an idle server: until the reference answers within 20 ms, 30 s at most.
 */
async function settle(port: number) {
  const until = Date.now() + 30_000
  while (Date.now() < until) {
    const started = performance.now()
    await (await fetch(`http://127.0.0.1:${port}${REFERENCE_PATH}`)).arrayBuffer()
    if (performance.now() - started < 20) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** autocannon against one path: `connections` keep-alive connections for `seconds`. */
async function load(
  port: number,
  urlPath: string,
  seconds: number,
  connections: number,
  options: Partial<autocannon.Options> = {},
): Promise<Result> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${urlPath}`,
    connections,
    duration: seconds,
    ...options,
  })
  await settle(port)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

/**
 * What a row is held to: at least `ratio` × the reference's req/s, with p99 under `p99` ms (the
 * seat changes: their p99 alone, ratio 0).
 */
type Goal = { ratio: number; p99: number }
const READ_GOAL: Goal = { ratio: 0.5, p99: 50 }
/** A member's page: what is the same for every member shared, only what is theirs rendered. */
const MEMBER_PAGE_GOAL: Goal = { ratio: 0.05, p99: 100 }

/** `goal`: what a read is held to (the reference, the writes and what only tells, none). */
type Row = { label: string; result: Result; goal: Goal | null }

function printTable(rows: Row[], reference: Result) {
  console.log('\n| call | req/s | × reference | p50 | p99 | errors | goal |')
  console.log('|---|---|---|---|---|---|---|')
  for (const { label, result, goal } of rows) {
    const ratio = result.rps / reference.rps
    const met = goal && ratio >= goal.ratio && result.p99 < goal.p99
    const which =
      !goal || goal === READ_GOAL
        ? ''
        : goal.ratio > 0
          ? ` (≥ ${goal.ratio}×, p99 < ${goal.p99} ms)`
          : ` (p99 < ${goal.p99} ms)`
    console.log(
      `| ${label} | ${result.rps.toFixed(0)} | ${ratio.toFixed(2)} | ${result.p50.toFixed(1)} ms | ` +
        `${result.p99.toFixed(1)} ms | ${result.errors} | ${goal ? (met ? 'met' : 'MISSED') : '—'}${which} |`,
    )
  }
}

/** The seats a podclub's page shows (its detail's label), as the server rendered it. */
function seatsShown(html: string): string | undefined {
  return /<dd>(No seats left|1 seat left|\d+ seats left)<\/dd>/.exec(html)?.[1]
}

/**
 * While seats change, toggles the quiet podclub alone, again and again, and reads the feed and
 * the podclub's page (a visitor's, kept for every visitor) right after each answer: both must show
 * the seats that answer gave. Returns the reads and how many were stale.
 */
async function checkFreshness(base: string, member: Login, podclubId: number, until: number) {
  let reads = 0
  let stale = 0
  let pages = 0
  let stalePages = 0
  while (Date.now() < until) {
    const toggled = await fetch(
      `${base}${api(buildPath(toggleRegistrationEndpoint.path, { podclubId }))}`,
      { method: 'POST', headers: { cookie: member.cookie, 'x-csrftoken': member.csrf } },
    )
    if (!toggled.ok) throw new Error(`the checker's toggle answered ${toggled.status}`)
    const { data: answer } = (await toggled.json()) as { data: { seats_left: number } }
    const feed = (await (await fetch(`${base}${FEED_PATH}`)).json()) as {
      data: { id: number; seats_left: number }[]
    }
    reads += 1
    if (feed.data.find((p) => p.id === podclubId)?.seats_left !== answer.seats_left) stale += 1
    const page = await fetch(`${base}/podclubs/${podclubId}`)
    pages += 1
    const left = answer.seats_left
    const label = left === 0 ? 'No seats left' : left === 1 ? '1 seat left' : `${left} seats left`
    if (seatsShown(await page.text()) !== label) stalePages += 1
  }
  return { reads, stale, pages, stalePages }
}

async function run(options: Options) {
  // The server serves the built page: built now if missing or older than its sources.
  await build({ page: true, server: false, ifStale: true })
  const self = fileURLToPath(import.meta.url)
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--serve', '--db', options.db], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('READY '))
      if (line) resolve(JSON.parse(line.slice('READY '.length)) as Ready)
    })
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)))
  })
  const { port } = ready
  const base = `http://127.0.0.1:${port}`
  const { duration, connections } = options
  try {
    console.log(
      `engine ${options.db}; ${ready.count} upcoming podclubs (${ready.withSeats} with seats taken); ` +
        `feed body ${ready.size} bytes; ${connections} connections, ${duration} s each`,
    )
    const reader = await login(base, 'bench.reader')
    const asReader = { headers: { cookie: reader.cookie } }
    // A browser: compressed pages; a visitor's sends no cookie, so each gets its CSRF cookie.
    const asBrowser = { headers: { 'accept-encoding': BROWSER_ENCODINGS } }
    const asReaderBrowser = {
      headers: { cookie: reader.cookie, 'accept-encoding': BROWSER_ENCODINGS },
    }
    const podclubPage = `/podclubs/${ready.detailId}`
    const reads: [string, string, Partial<autocannon.Options>, Goal | null][] = [
      ['GET /all_upcoming_podclubs/ (visitor)', FEED_PATH, {}, READ_GOAL],
      ['GET /all_upcoming_podclubs/ (member)', FEED_PATH, asReader, READ_GOAL],
      [
        'GET /podclubs/:id/',
        api(buildPath(getPodclubDetailEndpoint.path, { podclubId: ready.detailId })),
        {},
        READ_GOAL,
      ],
      ['GET /splash/', api(getSplashStatsEndpoint.path), {}, READ_GOAL],
      ['GET /whoami/ (logged in)', api(getWhoamiEndpoint.path), asReader, READ_GOAL],
      ['GET /profile/', api(getProfileEndpoint.path), asReader, READ_GOAL],
      ['page /home (visitor)', '/home', asBrowser, READ_GOAL],
      ['page /podclubs/:id (visitor)', podclubPage, asBrowser, READ_GOAL],
      ['page /about (visitor)', '/about', asBrowser, READ_GOAL],
      ['page /login (visitor)', '/login', asBrowser, READ_GOAL],
      ['page /home (member)', '/home', asReaderBrowser, MEMBER_PAGE_GOAL],
      ['page /podclubs/:id (member)', podclubPage, asReaderBrowser, MEMBER_PAGE_GOAL],
    ]
    // A member's page no kept page answers: a new query each time, so each is rendered (and
    // kept, pushing older ones out). What a member's first view after a change costs.
    let view = 0
    const rendered: Partial<autocannon.Options> = {
      ...asReaderBrowser,
      requests: [{ setupRequest: (request) => ({ ...request, path: `/home?view=${view++}` }) }],
    }
    reads.push(['page /home (member), rendered each time', '/home', rendered, null])
    const measured = reads.filter(([label]) => !options.only || label.includes(options.only))
    // Warm every route up (JIT, connection pool, the feed's cache) before measuring.
    await load(port, REFERENCE_PATH, 1, connections)
    for (const [, urlPath, extra] of measured) await load(port, urlPath, 1, connections, extra)

    const reference = await load(port, REFERENCE_PATH, duration, connections)
    const rows: Row[] = [{ label: 'reference (constant body)', result: reference, goal: null }]
    for (const [label, urlPath, extra, goal] of measured) {
      // Warmed again right before: each row is measured as soon after its warm-up as the others
      // (a kept page is rendered again a minute after its render, while still sent).
      await load(port, urlPath, 1, connections, extra)
      rows.push({ label, result: await load(port, urlPath, duration, connections, extra), goal })
    }
    if (options.only && !'GET /all_upcoming_podclubs/ while seats change'.includes(options.only)) {
      printTable(rows, reference)
      return
    }

    // The feed while seats change: 10 members toggle one podclub on their own connections.
    const togglers = await Promise.all(
      Array.from({ length: TOGGLERS }, (_, i) => login(base, `bench.toggler${i}`)),
    )
    const checker = await login(base, `bench.toggler${TOGGLERS}`)
    /** 10 members toggling seats of the two contested podclubs, half on each, for `seconds`. */
    const toggleSeats = (seconds: number) =>
      Promise.all(
        ready.contestedIds.map((podclubId, half) => {
          const members = togglers.filter((_, i) => i % 2 === half)
          let next = 0
          return load(
            port,
            api(buildPath(toggleRegistrationEndpoint.path, { podclubId })),
            seconds,
            members.length,
            {
              method: 'POST',
              setupClient: (client) => {
                const member = members[next++ % members.length]!
                client.setHeaders({ cookie: member.cookie, 'x-csrftoken': member.csrf })
              },
            },
          )
        }),
      ).then(([a, b]) => combined(a!, b!))
    // The seat change itself, with nothing else asked of the server.
    await toggleSeats(1)
    const alone = await toggleSeats(duration)
    await fetch(`${base}${EVENT_LOOP_PATH}`)
    const writes = toggleSeats(duration)
    const mixedReads = load(port, FEED_PATH, duration, connections)
    const freshness = checkFreshness(base, checker, ready.quietId, Date.now() + duration * 1000)
    const [written, read, fresh] = await Promise.all([writes, mixedReads, freshness])
    const loop = (await (await fetch(`${base}${EVENT_LOOP_PATH}`)).json()) as Record<string, number>
    rows.push({
      label: 'GET /all_upcoming_podclubs/ while seats change',
      result: read,
      goal: READ_GOAL,
    })
    const seatGoal = { ratio: 0, p99: options.db === 'postgres' ? 50 : 100 }
    rows.push({
      label: 'POST /register/:id/ (10 members, two podclubs)',
      result: alone,
      goal: seatGoal,
    })
    rows.push({
      label: 'POST /register/:id/ (the same, while the feed is read)',
      result: written,
      goal: seatGoal,
    })
    printTable(rows, reference)
    console.log(
      `\nfreshness: ${fresh.reads} feed reads right after a seat change, ${fresh.stale} stale; ` +
        `${fresh.pages} visitor's podclub pages, ${fresh.stalePages} stale (goal 0)`,
    )
    console.log(
      `server event loop delay while seats change: p50 ${loop.p50} ms, p99 ${loop.p99} ms, longest ${loop.max} ms`,
    )
  } finally {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }
}

const options = readOptions(process.argv.slice(2))
if (process.argv.includes('--serve')) {
  await serve(options)
} else if (process.argv.includes('--topology')) {
  // Through Caddy, one process against two, on PostgreSQL: scripts/bench-topology.ts.
  const { runTopologyBench } = await import('./bench-topology')
  await runTopologyBench(options)
} else {
  await run(options)
}
