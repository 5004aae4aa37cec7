// npm run bench:live [-- --db postgres] [--streams 1000] [--changes 100]
//
// The live stream under load: a server (a child process, as `npm start` runs it, on PGlite in a
// temporary DATA_DIR or on a fresh database of the PostgreSQL at BENCH_DATABASE_URL) holds
// 1,000 open streams from this process; 100 seat changes are made through the API one after the
// other, and for each the time from sending the change to its event reaching every stream is
// taken. Meanwhile a reader of its own (a worker thread, so this process's work on the streams
// does not time it) reads the feed again and again: a read must not wait for the fan-out.
// Prints p50, p99 and the worst of both, and the server's memory (after a GC) before the
// streams, with them idle, and after the changes. Goals: p99 < 1 s to every stream, feed p99
// < 50 ms while the events fan out.
import { spawn } from 'node:child_process'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { API_PREFIX } from '../src/contract/endpoint'
import { openEventStream, type EventStreamClient } from '../src/server/testing/event-stream'
import { buildBenchApp, openBenchDatabase } from './bench-database'

type Options = { db: 'pglite' | 'postgres'; streams: number; changes: number }

function readOptions(argv: string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`)
    return i >= 0 ? argv[i + 1] : undefined
  }
  const db = value('db') ?? 'pglite'
  if (db !== 'pglite' && db !== 'postgres') throw new Error('--db is pglite or postgres')
  return { db, streams: Number(value('streams') ?? 1000), changes: Number(value('changes') ?? 100) }
}

const PASSWORD = 'bench-password-1'
/** Members who take and give back seats: never more than the 9 seats. */
const TOGGLERS = 9
const MEMORY_PATH = '/bench/memory/'
const IDLE_MS = 10_000

type Ready = { port: number; podclubId: number; usernames: string[] }
type Memory = { rss: number; heapUsed: number; loop: { p99: number; max: number } }

// ---------------------------------------------------------------------------------------------
// The server (child process)

async function serve(options: Options) {
  const { users } = await import('../src/server/db/schema/index')
  const { hashPassword } = await import('../src/server/lib/passwords')
  const { insertPodclub } = await import('../src/server/features/podclubs/podclubs.fixtures')

  const { database, drop } = await openBenchDatabase(options.db)
  const { db } = database
  const passwordHash = await hashPassword(PASSWORD)
  const usernames = ['bench.host', ...Array.from({ length: TOGGLERS }, (_, i) => `bench.seat${i}`)]
  const people = await db
    .insert(users)
    .values(
      usernames.map((username) => ({ username, email: `${username}@example.com`, passwordHash })),
    )
    .returning({ id: users.id })
  const podclub = await insertPodclub(db, people[0]!.id)

  const app = await buildBenchApp(database, {
    // The streams come from this machine: X-Forwarded-For spreads them over addresses, as the
    // many members of a club would be, so the per-address cap measures nothing here.
    TRUST_PROXY: '1',
    METRICS_TOKEN: 'bench-metrics-token-0123456789',
  })
  // How long the server's event loop was held at a time since the last ask: what a request
  // arriving then waited before the server could even read it.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 })
  loopDelay.enable()
  app.get(MEMORY_PATH, { schema: { hide: true } }, async () => {
    globalThis.gc?.()
    const { rss, heapUsed } = process.memoryUsage()
    const loop = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 }
    loopDelay.reset()
    return { rss, heapUsed, loop }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const ready: Ready = { port, podclubId: podclub.id, usernames: usernames.slice(1) }
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
// The driver

async function startServer(options: Options) {
  const script = fileURLToPath(import.meta.url)
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, '--serve', '--db', options.db],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('READY '))
      if (line) resolve(JSON.parse(line.slice('READY '.length)) as Ready)
    })
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)))
  })
  const stopped = new Promise((resolve) => child.once('exit', resolve))
  return {
    ready,
    async stop() {
      child.kill('SIGTERM')
      await stopped
    },
  }
}

/** A member's cookies and CSRF token, through the API as the page would log in. */
async function logIn(base: string, username: string) {
  const cookies = new Map<string, string>()
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1))
    }
  }
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  keep(await fetch(`${base}${API_PREFIX}/whoami/`))
  const login = await fetch(`${base}${API_PREFIX}/login/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookie(),
      'x-csrftoken': cookies.get('csrftoken')!,
    },
    body: JSON.stringify({ username, password: PASSWORD }),
  })
  if (login.status !== 200) throw new Error(`login answered ${login.status}`)
  keep(login)
  return { cookie: cookie(), csrf: cookies.get('csrftoken')! }
}

const FEED_PATH = `${API_PREFIX}/all_upcoming_podclubs/`
/** A pause between two reads of the feed reader, so it reads like many visitors, not a loop. */
const FEED_PAUSE_MS = 20

/**
 * Reads `url` again and again in a worker thread until stopped; answers each read's time (ms).
 * Plain JavaScript, evaluated in the worker: its own event loop, its own connection.
 */
function readFeedMeanwhile(url: string) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
    let stop = false
    const times = []
    parentPort.on('message', () => { stop = true })
    ;(async () => {
      while (!stop) {
        const started = performance.now()
        const res = await fetch(workerData.url)
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error('the feed answered ' + res.status)
        times.push(performance.now() - started)
        await new Promise((r) => setTimeout(r, workerData.pause))
      }
      parentPort.postMessage(times)
    })()`,
    { eval: true, workerData: { url, pause: FEED_PAUSE_MS } },
  )
  const times = new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    async stop(): Promise<number[]> {
      worker.postMessage('stop')
      const result = await times
      await worker.terminate()
      return result.sort((a, b) => a - b)
    },
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

async function drive(options: Options) {
  const server = await startServer(options)
  const base = `http://127.0.0.1:${server.ready.port}`
  const memory = async (): Promise<Memory> =>
    (await (await fetch(`${base}${MEMORY_PATH}`)).json()) as Memory
  const streams: EventStreamClient[] = []
  try {
    const members = await Promise.all(server.ready.usernames.map((u) => logIn(base, u)))
    const before = await memory()
    // The feed with no stream open, for comparison.
    const quiet = readFeedMeanwhile(`${base}${FEED_PATH}`)
    await new Promise((r) => setTimeout(r, 3_000))
    const feedQuiet = await quiet.stop()

    for (let i = 0; i < options.streams; i++) {
      const s = await openEventStream(`${base}${API_PREFIX}/events/`, {
        address: `10.${(i >> 12) & 255}.${(i >> 4) & 255}.${i & 15}`,
      })
      if (s.status !== 200) throw new Error(`stream ${i} answered ${s.status}: ${s.body}`)
      streams.push(s)
    }
    await Promise.all(streams.map((s) => s.next((e) => e.event === 'ready', 30_000)))
    await new Promise((r) => setTimeout(r, IDLE_MS))
    const idle = await memory()

    const { podclubId } = server.ready
    const isSeatChange = (e: { event: string; data: unknown }) =>
      e.event === 'podclub' && (e.data as { id: number }).id === podclubId
    const latencies: number[] = []
    const reader = readFeedMeanwhile(`${base}${FEED_PATH}`)
    for (let change = 0; change < options.changes; change++) {
      // The newest seat change each stream has: the next one has a higher id.
      const seen = streams.map((s) => {
        const last = s.events.findLast(isSeatChange)
        return last ? Number(last.id) : 0
      })
      const member = members[change % members.length]!
      const sentAt = Date.now()
      const res = await fetch(`${base}${API_PREFIX}/register/${podclubId}/`, {
        method: 'POST',
        headers: { cookie: member.cookie, 'x-csrftoken': member.csrf },
      })
      if (res.status !== 200) throw new Error(`seat change ${change} answered ${res.status}`)
      await Promise.all(
        streams.map(async (s, i) => {
          const arrived = await s.next((e) => isSeatChange(e) && Number(e.id) > seen[i]!, 10_000)
          latencies.push(arrived.receivedAt - sentAt)
        }),
      )
    }
    const feedBusy = await reader.stop()
    const after = await memory()
    latencies.sort((a, b) => a - b)
    const ms = (n: number) => `${n.toFixed(1)} ms`

    const rows = [
      ['streams', String(options.streams)],
      ['seat changes', String(options.changes)],
      ['deliveries', String(latencies.length)],
      ['p50 send → every stream', `${quantile(latencies, 0.5)} ms`],
      ['p99 send → every stream', `${quantile(latencies, 0.99)} ms`],
      ['worst', `${latencies[latencies.length - 1]} ms`],
      [
        'feed reads, no stream open: p50 / p99 / worst',
        `${ms(quantile(feedQuiet, 0.5))} / ${ms(quantile(feedQuiet, 0.99))} / ${ms(feedQuiet.at(-1)!)} (${feedQuiet.length} reads)`,
      ],
      [
        'feed reads while events fan out: p50 / p99 / worst',
        `${ms(quantile(feedBusy, 0.5))} / ${ms(quantile(feedBusy, 0.99))} / ${ms(feedBusy.at(-1)!)} (${feedBusy.length} reads)`,
      ],
      [
        "server's event loop held, while events fan out: p99 / longest",
        `${ms(after.loop.p99)} / ${ms(after.loop.max)}`,
      ],
      [
        'server heap before / idle streams / after',
        `${mib(before.heapUsed)} / ${mib(idle.heapUsed)} / ${mib(after.heapUsed)}`,
      ],
      [
        'server RSS before / idle streams / after',
        `${mib(before.rss)} / ${mib(idle.rss)} / ${mib(after.rss)}`,
      ],
    ]
    console.log(
      `\nengine ${options.db}; ${options.streams} streams idle ${IDLE_MS / 1000} s, then ${options.changes} seat changes one after the other\n`,
    )
    console.log('| measure | value |\n|---|---|')
    for (const [k, v] of rows) console.log(`| ${k} | ${v} |`)
    const met = quantile(latencies, 0.99) < 1000
    const feedMet = quantile(feedBusy, 0.99) < 50
    console.log(`\ngoal p99 < 1 s: ${met ? 'met' : 'MISSED'}`)
    console.log(`goal feed p99 < 50 ms while events fan out: ${feedMet ? 'met' : 'MISSED'}`)
    process.exitCode = met && feedMet ? 0 : 1
  } finally {
    for (const s of streams) s.close()
    await server.stop()
  }
}

const options = readOptions(process.argv.slice(2))
if (process.argv.includes('--serve')) await serve(options)
else await drive(options)
