// npm run bench [-- --db postgres] [--duration 10] [--connections 50]
//
// Measures GET /api/v1/all_upcoming_podclubs/ against a bare reference route that answers a
// constant JSON body of the same size, on a fresh database holding 60 upcoming podclubs (some
// with seats taken). The server runs in a child process (as `npm start` would, on PGlite in a
// temporary DATA_DIR, or on a fresh database of the PostgreSQL at BENCH_DATABASE_URL); this
// process drives the load with autocannon (50 keep-alive connections for 10 s by default).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'

type Options = { db: 'pglite' | 'postgres'; duration: number; connections: number }

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
  }
}

const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const FEED_PATH = '/api/v1/all_upcoming_podclubs/'
const REFERENCE_PATH = '/bench/reference/'

// ---------------------------------------------------------------------------------------------
// The server (child process)

async function serve(options: Options) {
  const { buildApp } = await import('../src/server/app')
  const { openPglite, openPostgres } = await import('../src/server/db/client')
  const { registrations, users } = await import('../src/server/db/schema/index')
  const { insertPodclub } = await import('../src/server/features/podclubs/podclubs.fixtures')
  const { parseEnv } = await import('../src/server/lib/env')
  const { systemClock } = await import('../src/server/lib/clock')

  let database: Awaited<ReturnType<typeof openPglite>>
  let cleanup = async () => {}
  if (options.db === 'postgres') {
    const name = `podclub_bench_${Date.now().toString(36)}`
    const admin = new pg.Client({ connectionString: POSTGRES_URL })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(POSTGRES_URL)
    url.pathname = `/${name}`
    database = await openPostgres(url.toString())
    cleanup = async () => {
      const drop = new pg.Client({ connectionString: POSTGRES_URL })
      await drop.connect()
      await drop.query(`drop database if exists ${name} with (force)`)
      await drop.end()
    }
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'podclub-bench-'))
    database = await openPglite(dir)
    cleanup = async () => rmSync(dir, { recursive: true, force: true })
  }
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

  const env = parseEnv({
    NODE_ENV: 'production',
    APP_URL: 'http://127.0.0.1',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    CLUB_INVITE_CODE: 'benchclub',
    LOG_LEVEL: 'warn',
  })
  const app = await buildApp({
    env,
    db,
    clock: systemClock,
    wakeOutbox: () => {},
    wakeJobs: () => {},
    sessionSecret: env.SESSION_SECRET!,
    clubInviteCode: 'benchclub',
  })
  let referenceBody = Buffer.alloc(0)
  app.get(REFERENCE_PATH, { schema: { hide: true } }, (_request, reply) => {
    void reply.header('content-type', 'application/json; charset=utf-8').send(referenceBody)
  })
  await app.ready()
  const first = await app.inject({ method: 'GET', url: FEED_PATH })
  if (first.statusCode !== 200) throw new Error(`the feed answered ${first.statusCode}`)
  referenceBody = Buffer.from(first.body)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const list = JSON.parse(first.body) as { data: { seats_left: number }[] }
  process.stdout.write(
    `READY ${port} ${Buffer.byteLength(first.body)} ${list.data.length} ${
      list.data.filter((p) => p.seats_left < 9).length
    }\n`,
  )
  const stop = async () => {
    await app.close()
    await database.close()
    await cleanup()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop())
}

// ---------------------------------------------------------------------------------------------
// The load generator (this process)

type Result = { rps: number; p50: number; p99: number; requests: number; errors: number }

/** autocannon against one path: `connections` keep-alive connections for `seconds`. */
async function load(
  port: number,
  urlPath: string,
  seconds: number,
  connections: number,
): Promise<Result> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${urlPath}`,
    connections,
    duration: seconds,
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

function summary(label: string, r: Result) {
  console.log(
    `${label.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} answers, ${r.errors} errors)`,
  )
  return r.rps
}

async function run(options: Options) {
  const self = fileURLToPath(import.meta.url)
  const child = spawn(process.execPath, ['--import', 'tsx', self, '--serve', '--db', options.db], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const ready = await new Promise<string[]>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('READY '))
      if (line) resolve(line.split(' ').slice(1))
    })
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)))
  })
  const [portText, size, count, withSeats] = ready
  const port = Number(portText)
  try {
    console.log(
      `engine ${options.db}; ${count} upcoming podclubs (${withSeats} with seats taken); body ${size} bytes; ` +
        `${options.connections} connections, ${options.duration} s each`,
    )
    // Warm both routes up (JIT, connection pool, the feed's cache) before measuring.
    await load(port, FEED_PATH, 1, options.connections)
    await load(port, REFERENCE_PATH, 1, options.connections)
    const feed = await load(port, FEED_PATH, options.duration, options.connections)
    const reference = await load(port, REFERENCE_PATH, options.duration, options.connections)
    const feedRps = summary('GET /all_upcoming_podclubs/', feed)
    const referenceRps = summary('reference (constant body)', reference)
    const ratio = feedRps / referenceRps
    const p99 = feed.p99
    console.log(
      `feed / reference: ${ratio.toFixed(2)} (goal >= 0.5); feed p99 ${p99.toFixed(1)} ms (goal < 50)`,
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
} else {
  await run(options)
}
