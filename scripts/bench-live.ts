// npm run bench:live [-- --db postgres] [--streams 1000] [--changes 100] [--profile <file>]
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
//
// What a slow read waited on is printed too: the slowest reads split into the time before the
// server read them, in the server and back to the reader; the times the server's loop was held
// 20 ms or more, and how much of that its thread ran or waited for a CPU (Linux); and the CPU
// the server and this process (the streams' clients, the feed reader) took, as they share the
// machine's cores. `--profile <file>` writes a CPU profile of the server during the changes (for
// Chrome's DevTools), and beside it `<file>.held.json`, when the loop was held, on its clock.
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { Session } from 'node:inspector/promises'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { API_PREFIX } from '../src/contract/endpoint'
import { buildBenchApp, openBenchDatabase } from './bench-database'

type Options = {
  db: 'pglite' | 'postgres'
  streams: number
  changes: number
  profile: string | undefined
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
    streams: Number(value('streams') ?? 1000),
    changes: Number(value('changes') ?? 100),
    profile: value('profile'),
  }
}

const PASSWORD = 'bench-password-1'
/** Members who take and give back seats: never more than the 9 seats. */
const TOGGLERS = 9
const MEMORY_PATH = '/bench/memory/'
const PROFILE_PATH = '/bench/profile/'
const FEED_SEEN_PATH = '/bench/feed-seen/'
/** The feed reader's send time (ms since the epoch, fractional), for the server to note. */
const SENT_HEADER = 'x-bench-sent'
const epochNow = () => performance.timeOrigin + performance.now()
const IDLE_MS = 10_000

type Ready = { port: number; podclubId: number; usernames: string[] }
type Memory = {
  rss: number
  /** The writer's. */
  childrenRss: number
  heapUsed: number
  loop: { p99: number; max: number }
  /** CPU time (ms) the server took since the last ask, and its child processes (the writer). */
  cpuMs: number
  childrenCpuMs: number
  held: Held
}

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
  const held = heldLoop()
  let cpuSince = process.cpuUsage()
  let childrenCpuSince = childrenCpuMs()
  app.get(MEMORY_PATH, { schema: { hide: true } }, async () => {
    const cpu = process.cpuUsage(cpuSince)
    cpuSince = process.cpuUsage()
    const childrenCpu = childrenCpuMs()
    const childrenCpuMsNow = childrenCpu - childrenCpuSince
    childrenCpuSince = childrenCpu
    globalThis.gc?.()
    const { rss, heapUsed } = process.memoryUsage()
    const loop = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 }
    loopDelay.reset()
    return {
      rss,
      childrenRss: childrenRss(),
      heapUsed,
      loop,
      cpuMs: (cpu.user + cpu.system) / 1000,
      childrenCpuMs: childrenCpuMsNow,
      held: held.take(),
    }
  })
  // Each feed read of the reader as the server saw it: when it was read (the reader stamps when it
  // sent it) and when its answer was written, so a slow read tells what it waited on.
  const feedSeen = new Map<number, { readAt: number; answeredAt: number }>()
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const sent = Number(req.headers[SENT_HEADER])
    if (!sent) return
    const seen = { readAt: epochNow(), answeredAt: 0 }
    feedSeen.set(sent, seen)
    res.once('finish', () => (seen.answeredAt = epochNow()))
  })
  app.get(FEED_SEEN_PATH, { schema: { hide: true } }, async () => {
    const seen = [...feedSeen]
    feedSeen.clear()
    return seen
  })
  const inspector = new Session()
  app.post<{ Querystring: { do: string } }>(
    PROFILE_PATH,
    { schema: { hide: true } },
    async (req) => {
      if (!options.profile) return {}
      if (req.query.do === 'start') {
        inspector.connect()
        await inspector.post('Profiler.enable')
        await inspector.post('Profiler.start')
      } else {
        const { profile } = await inspector.post('Profiler.stop')
        writeFileSync(options.profile, JSON.stringify(profile))
        writeFileSync(`${options.profile}.held.json`, JSON.stringify(held.times()))
        inspector.disconnect()
      }
      return {}
    },
  )
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

/** The processes this one started that are alive now (Linux). */
function childPids(): string[] {
  const pids = readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim()
  return pids ? pids.split(' ') : []
}

/** The resident memory of this process's children (the writer), in bytes; 0 where not told. */
function childrenRss(): number {
  try {
    let kib = 0
    for (const pid of childPids()) {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      kib += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0)
    }
    return kib * 1024
  } catch {
    return 0
  }
}

/**
 * CPU time (ms) this process's children have taken so far (the live streams' writer), those
 * alive now; 0 where Linux's /proc does not tell.
 */
function childrenCpuMs(): number {
  try {
    let ticks = 0
    for (const pid of childPids()) {
      // utime and stime, the 14th and 15th fields, after the command's closing parenthesis.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    }
    // Linux counts them in clock ticks of 10 ms (USER_HZ 100).
    return ticks * 10
  } catch {
    return 0
  }
}

/** Times the main thread's loop was held 20 ms or more: how long, and how much of it ran. */
type Held = { count: number; wallMs: number; ranMs: number; waitedMs: number }

/**
 * Watches the main thread every 5 ms. When the loop was held 20 ms or more, Linux's schedstat
 * of the thread tells how much of that it ran on a CPU and how much it waited for one (the
 * machine busy with other processes), which the loop's delay alone does not.
 */
function heldLoop() {
  const file = `/proc/self/task/${process.pid}/schedstat`
  const read = () => {
    const [ran, waited] = readFileSync(file, 'utf8').split(' ').map(Number)
    return { at: performance.now(), ran: ran! / 1e6, waited: waited! / 1e6 }
  }
  let held: Held = { count: 0, wallMs: 0, ranMs: 0, waitedMs: 0 }
  /** Each time held, on the clock of a CPU profile's samples (µs), for `--profile`. */
  const times: Array<{ from: number; to: number; ranMs: number; waitedMs: number }> = []
  const micros = () => Number(process.hrtime.bigint() / 1000n)
  let lastMicros = micros()
  try {
    let last = read()
    setInterval(() => {
      const now = read()
      const nowMicros = micros()
      if (now.at - last.at >= 20) {
        times.push({
          from: lastMicros,
          to: nowMicros,
          ranMs: now.ran - last.ran,
          waitedMs: now.waited - last.waited,
        })
        held.count += 1
        held.wallMs += now.at - last.at
        held.ranMs += now.ran - last.ran
        held.waitedMs += now.waited - last.waited
      }
      last = now
      lastMicros = nowMicros
    }, 5).unref()
  } catch {
    // Not Linux: not told.
  }
  return {
    take(): Held {
      const taken = held
      held = { count: 0, wallMs: 0, ranMs: 0, waitedMs: 0 }
      return taken
    },
    /** Each time held since the last call. */
    times: () => times.splice(0),
  }
}

// ---------------------------------------------------------------------------------------------
// The driver

async function startServer(options: Options) {
  const script = fileURLToPath(import.meta.url)
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      script,
      '--serve',
      '--db',
      options.db,
      ...(options.profile ? ['--profile', options.profile] : []),
    ],
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
    const reads = []
    parentPort.on('message', () => { stop = true })
    ;(async () => {
      while (!stop) {
        const started = performance.now()
        const sent = performance.timeOrigin + started
        const res = await fetch(workerData.url, { headers: { [workerData.header]: String(sent) } })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error('the feed answered ' + res.status)
        reads.push({ sent, ms: performance.now() - started })
        await new Promise((r) => setTimeout(r, workerData.pause))
      }
      parentPort.postMessage(reads)
    })()`,
    { eval: true, workerData: { url, pause: FEED_PAUSE_MS, header: SENT_HEADER } },
  )
  const reads = new Promise<FeedRead[]>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    async stop(): Promise<FeedRead[]> {
      worker.postMessage('stop')
      const result = await reads
      await worker.terminate()
      return result.sort((a, b) => a.ms - b.ms)
    },
  }
}

/** One read of the feed reader: when it was sent (ms since the epoch) and how long it took. */
type FeedRead = { sent: number; ms: number }

/**
 * Where the slowest reads (above the 99th percentile) spent their time, the median of each
 * part: before the server read the request (its event loop held, or the process not running),
 * in the server, and from the answer to the reader (the reader's own thread not running).
 */
function whereSlowReadsWaited(
  reads: FeedRead[],
  seen: Array<[number, { readAt: number; answeredAt: number }]>,
) {
  const bySent = new Map(seen)
  const slow = reads.slice(Math.floor(0.99 * reads.length))
  const parts = slow.flatMap((r) => {
    const s = bySent.get(r.sent)
    if (!s || !s.answeredAt) return []
    return [[s.readAt - r.sent, s.answeredAt - s.readAt, r.sent + r.ms - s.answeredAt]]
  })
  const median = (i: number) =>
    parts.map((p) => p[i]!).sort((a, b) => a - b)[Math.floor(parts.length / 2)] ?? NaN
  return `${median(0).toFixed(1)} / ${median(1).toFixed(1)} / ${median(2).toFixed(1)} ms (${parts.length} reads)`
}

/**
 * One stream as the bench holds it: the id and arrival time of the newest `podclub` event of the
 * bench's podclub, read from the text without parsing its data. 5,000 of the tests' own clients
 * (`testing/event-stream.ts`, which parses every event as the page does) took more than a core,
 * on the same two cores as the server; these take what reading the sockets costs.
 */
type BenchStream = {
  ready: Promise<void>
  lastId: number
  arrivedAt: number
  /** Called on each seat change this stream reads. */
  onSeatChange: (() => void) | undefined
  close: () => void
}

async function openBenchStream(
  url: string,
  { address, podclubId }: { address: string; podclubId: number },
): Promise<BenchStream> {
  const request = http.get(url, {
    headers: { accept: 'text/event-stream', 'x-forwarded-for': address },
    agent: false,
  })
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve)
    request.once('error', reject)
  })
  request.on('error', () => {})
  if (res.statusCode !== 200) throw new Error(`a stream answered ${res.statusCode}`)
  const ofPodclub = `"id":${podclubId},`
  let isReady: () => void = () => {}
  const stream: BenchStream = {
    ready: new Promise((resolve) => (isReady = resolve)),
    lastId: 0,
    arrivedAt: 0,
    onSeatChange: undefined,
    close: () => request.destroy(),
  }
  res.setEncoding('latin1')
  let rest = ''
  res.on('data', (chunk: string) => {
    const text = rest + chunk
    let from = 0
    let end: number
    while ((end = text.indexOf('\n\n', from)) !== -1) {
      const block = text.slice(from, end)
      from = end + 2
      if (block.includes('\nevent: ready')) isReady()
      else if (block.includes('\nevent: podclub\n') && block.includes(ofPodclub)) {
        stream.lastId = Number(/^id: (\d+)$/m.exec(block)?.[1])
        stream.arrivedAt = Date.now()
        stream.onSeatChange?.()
      }
    }
    rest = text.slice(from)
  })
  return stream
}

/**
 * Resolves once every stream has read a seat change newer than the one it has now, with when
 * each read it; rejects after 10 s.
 */
function untilEveryStreamPasses(streams: BenchStream[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let left = streams.length
    const timer = setTimeout(
      () => reject(new Error(`${left} streams missed a seat change`)),
      10_000,
    )
    for (const s of streams) {
      const seen = s.lastId
      s.onSeatChange = () => {
        if (s.lastId <= seen) return
        s.onSeatChange = undefined
        if (--left > 0) return
        clearTimeout(timer)
        resolve(streams.map((t) => t.arrivedAt))
      }
    }
  })
}

const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)} %`
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

async function drive(options: Options) {
  const server = await startServer(options)
  const base = `http://127.0.0.1:${server.ready.port}`
  const memory = async (): Promise<Memory> =>
    (await (await fetch(`${base}${MEMORY_PATH}`)).json()) as Memory
  const streams: BenchStream[] = []
  try {
    const members = await Promise.all(server.ready.usernames.map((u) => logIn(base, u)))
    const before = await memory()
    // The feed with no stream open, for comparison.
    const quiet = readFeedMeanwhile(`${base}${FEED_PATH}`)
    await new Promise((r) => setTimeout(r, 3_000))
    const feedQuiet = (await quiet.stop()).map((r) => r.ms)

    const { podclubId } = server.ready
    for (let i = 0; i < options.streams; i++) {
      streams.push(
        await openBenchStream(`${base}${API_PREFIX}/events/`, {
          address: `10.${(i >> 12) & 255}.${(i >> 4) & 255}.${i & 15}`,
          podclubId,
        }),
      )
    }
    await Promise.all(streams.map((s) => s.ready))
    await new Promise((r) => setTimeout(r, IDLE_MS))
    const idle = await memory()

    const latencies: number[] = []
    const profile = (what: string) =>
      fetch(`${base}${PROFILE_PATH}?do=${what}`, { method: 'POST' }).then((r) => r.arrayBuffer())
    await profile('start')
    const changesStart = performance.now()
    const clientCpuBefore = process.cpuUsage()
    const reader = readFeedMeanwhile(`${base}${FEED_PATH}`)
    for (let change = 0; change < options.changes; change++) {
      // The newest seat change each stream has: the next one has a higher id.
      const everyStream = untilEveryStreamPasses(streams)
      const member = members[change % members.length]!
      const sentAt = Date.now()
      const res = await fetch(`${base}${API_PREFIX}/register/${podclubId}/`, {
        method: 'POST',
        headers: { cookie: member.cookie, 'x-csrftoken': member.csrf },
      })
      if (res.status !== 200) throw new Error(`seat change ${change} answered ${res.status}`)
      for (const arrivedAt of await everyStream) latencies.push(arrivedAt - sentAt)
    }
    const feedReads = await reader.stop()
    const feedBusy = feedReads.map((r) => r.ms)
    const feedSeen = (await (await fetch(`${base}${FEED_SEEN_PATH}`)).json()) as Array<
      [number, { readAt: number; answeredAt: number }]
    >
    const clientCpu = process.cpuUsage(clientCpuBefore)
    const changesMs = performance.now() - changesStart
    const after = await memory()
    await profile('stop')
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
        'slowest 1 % of those: waiting to be read / in the server / back to the reader (medians)',
        whereSlowReadsWaited(feedReads, feedSeen),
      ],
      [
        "server's event loop held, while events fan out: p99 / longest",
        `${ms(after.loop.p99)} / ${ms(after.loop.max)}`,
      ],
      [
        "loop held 20 ms or more: times, in all; the server's thread on a CPU / waiting for one",
        `${after.held.count}, ${after.held.wallMs.toFixed(0)} ms; ${after.held.ranMs.toFixed(0)} / ${after.held.waitedMs.toFixed(0)} ms`,
      ],
      [
        'CPU during the changes, of one core: server / its writer / bench client (streams, feed reader)',
        `${pct(after.cpuMs, changesMs)} / ${pct(after.childrenCpuMs, changesMs)} / ${pct((clientCpu.user + clientCpu.system) / 1000, changesMs)} (${(changesMs / 1000).toFixed(1)} s)`,
      ],
      [
        'server heap before / idle streams / after',
        `${mib(before.heapUsed)} / ${mib(idle.heapUsed)} / ${mib(after.heapUsed)}`,
      ],
      [
        'server RSS before / idle streams / after',
        `${mib(before.rss)} / ${mib(idle.rss)} / ${mib(after.rss)}`,
      ],
      [
        "its writer's RSS, idle streams / after",
        `${mib(idle.childrenRss)} / ${mib(after.childrenRss)}`,
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
