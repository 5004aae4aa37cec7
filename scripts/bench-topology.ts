// npm run bench -- --topology [--duration 10] [--connections 50]
//
// The feed and the seat change through Caddy (deploy/Caddyfile, HTTPS), on PostgreSQL, with one
// app process behind it and then two (deploy/podclub@.service, as `npm run test:topology` runs
// them), in one run. Beside each figure, the CPU time each part used during it (the app
// processes, PostgreSQL's processes, Caddy, the load generator): on a machine of two cores, two
// processes can serve more than one only while neither the database nor the cores are spent.
// Rate limits stay on, as in production: 40 members take and give back seats, each within its 60
// seat changes a minute (the seat change stops after 50 each, however fast the machine).
import { readdirSync, readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { type AppProcess, SiteAgent, type Stack, startStack } from '../e2e/topology/stack'
import { openPostgres } from '../src/server/db/client'
import { registrations, users } from '../src/server/db/schema/index'
import { insertPodclub } from '../src/server/features/podclubs/podclubs.fixtures'
import { registrationLimits } from '../src/server/features/registrations/registrations.routes'
import { hashPassword } from '../src/server/lib/passwords'
import { startTestSmtp } from '../src/server/testing/smtp'

type Options = { duration: number; connections: number }

const BASE_PORT = Number(process.env.TOPOLOGY_BENCH_PORT ?? 4450)
const PASSWORD = 'bench-password-1'
const FEED = '/api/v1/all_upcoming_podclubs/'
const TOGGLERS = 40
const PER_PODCLUB = 8
/**
 * Seat changes each member sends in one arrangement: under its limit by a margin, so a fast
 * machine measures the seat change, not the limit's 429s (one run is over well within the
 * limit's window).
 */
const CHANGES_PER_MEMBER = registrationLimits.toggle.points - 10

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** PostgreSQL's processes on this machine (the server the database is on). */
function postgresPids(): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        pids.push(Number(entry))
    } catch {
      // Gone meanwhile.
    }
  }
  return pids
}

type Cpu = { apps: number; postgres: number; caddy: number; load: number }

function readCpu(stack: Stack, apps: AppProcess[]): Cpu & { pg: Map<number, number> } {
  const pg = new Map(postgresPids().map((pid) => [pid, cpuSeconds(pid)]))
  return {
    apps: apps.reduce((sum, a) => sum + cpuSeconds(a.pid), 0),
    postgres: [...pg.values()].reduce((a, b) => a + b, 0),
    caddy: cpuSeconds(stack.caddyPid()),
    load: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
    pg,
  }
}

/** CPU used between two readings; PostgreSQL's backends that started meanwhile count whole. */
function cpuBetween(before: ReturnType<typeof readCpu>, after: ReturnType<typeof readCpu>): Cpu {
  let postgres = 0
  for (const [pid, seconds] of after.pg) postgres += seconds - (before.pg.get(pid) ?? 0)
  return {
    apps: after.apps - before.apps,
    postgres,
    caddy: after.caddy - before.caddy,
    load: after.load - before.load,
  }
}

type Row = {
  arrangement: string
  call: string
  rps: number
  p50: number
  p99: number
  errors: string
  cpu: Cpu
  seconds: number
}

export async function runTopologyBench(options: Options) {
  const smtp = await startTestSmtp({ port: BASE_PORT + 25 })
  let stack: Stack | undefined
  // Ctrl+C: take everything down (its database included) before going.
  const interrupted = () => {
    void Promise.allSettled([stack?.stop(), smtp.stop()]).then(() => process.exit(130))
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    stack = await startStack({ basePort: BASE_PORT, processes: 2, smtpUrl: smtp.url })
    const [first, second] = stack.apps as [AppProcess, AppProcess]
    const database = await openPostgres(stack.databaseUrl, { max: 2 })
    const { db } = database
    // The feed of `npm run bench`: 60 upcoming podclubs with real-sized texts, every third with
    // seats taken; and the podclubs the togglers share, eight to each.
    const passwordHash = await hashPassword(PASSWORD, { memoryCost: 256, timeCost: 1 })
    const people = await db
      .insert(users)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          username: `bench.member${i}`,
          email: `bench${i}@example.com`,
          passwordHash,
        })),
      )
      .returning({ id: users.id })
    const description =
      'A conversation about how ideas spread, why some of them stick, and what we do with them ' +
      'once they have taken hold. Bring one moment from the episode that surprised you and one ' +
      'you disagreed with; we will start from those and see where the hour takes us.'
    for (let i = 0; i < 60; i++) {
      const podclub = await insertPodclub(db, people[i % people.length]!.id, {
        episodeTitle: `Episode ${i + 1}: The Sound of a Shrinking Room`,
        startsAt: new Date(Date.now() + (i + 2) * 24 * 3600 * 1000),
        location: i % 2 ? 'zoom' : 'nyc',
        description,
        podmeisterNote: description.slice(0, 120),
      })
      if (i % 3 === 0) {
        await db
          .insert(registrations)
          .values(
            people.slice(0, (i % 9) + 1).map((p) => ({ podclubId: podclub.id, userId: p.id })),
          )
      }
    }
    // A set of members for each arrangement: a member's 60 seat changes a minute are its own.
    const togglers = Array.from({ length: 2 * TOGGLERS }, (_, i) => `bench.toggler${i}`)
    await db
      .insert(users)
      .values(
        togglers.map((username) => ({ username, email: `${username}@example.com`, passwordHash })),
      )
    const contested: number[] = []
    // Podclubs of their own for each arrangement too: the first's seats stay taken.
    for (let i = 0; i < (2 * TOGGLERS) / PER_PODCLUB; i++) {
      contested.push(
        (
          await insertPodclub(db, people[0]!.id, {
            startsAt: new Date(Date.now() + (90 + i) * 86400_000),
          })
        ).id,
      )
    }
    await database.close()
    const logins = await Promise.all(
      togglers.map(async (username) => {
        const agent = new SiteAgent(stack!.origin, stack!.caCert)
        const res = await agent.post('/api/v1/login/', { username, password: PASSWORD })
        if (res.status !== 200) throw new Error(`login of ${username}: ${res.status} ${res.text}`)
        await agent.close()
        return { cookie: agent.cookieHeader(), csrf: agent.csrf() }
      }),
    )

    const url = `https://localhost:${stack.httpsPort}`
    const rows: Row[] = []
    const measure = async (
      arrangement: string,
      apps: AppProcess[],
      call: string,
      opts: Partial<autocannon.Options>,
    ) => {
      const before = readCpu(stack!, apps)
      const started = performance.now()
      const result = await autocannon({ url, duration: options.duration, ...opts })
      const seconds = (performance.now() - started) / 1000
      const cpu = cpuBetween(before, readCpu(stack!, apps))
      const byStatus = Object.entries(result.statusCodeStats ?? {})
        .filter(([status]) => status !== '200')
        .map(([status, { count }]) => `${status}: ${count}`)
      if (result.errors + result.timeouts > 0)
        byStatus.push(`no answer: ${result.errors + result.timeouts}`)
      rows.push({
        arrangement,
        call,
        // Requests answered over the run's length: a run of a set number of requests ends
        // within its last second, which an average of whole seconds would count as one.
        rps: result.requests.total / result.duration,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: byStatus.join(', ') || '0',
        cpu,
        seconds,
      })
    }

    for (const [round, [arrangement, apps]] of (
      [
        ['1 process', [first]],
        ['2 processes', [first, second]],
      ] as const
    ).entries()) {
      await stack.useUpstreams([...apps])
      // Caddy's health checks see the processes within its interval; then warm up.
      await new Promise((r) => setTimeout(r, 2_500))
      await autocannon({ url: `${url}${FEED}`, duration: 2, connections: options.connections })
      // As a browser asks for it: compressed (the app compresses, Caddy passes it on).
      await measure(arrangement, [...apps], `GET ${FEED}`, {
        url: `${url}${FEED}`,
        connections: options.connections,
        headers: { 'accept-encoding': 'br, gzip' },
      })
      let next = 0
      await measure(arrangement, [...apps], 'POST /register/:id/ (40 members, 5 podclubs)', {
        connections: TOGGLERS,
        amount: TOGGLERS * CHANGES_PER_MEMBER,
        setupClient: (client) => {
          const i = next++ % TOGGLERS
          const login = logins[round * TOGGLERS + i]!
          client.setRequests([
            {
              method: 'POST',
              path: `/api/v1/register/${contested[Math.floor((round * TOGGLERS + i) / PER_PODCLUB)]}/`,
              headers: {
                cookie: login.cookie,
                'x-csrftoken': login.csrf,
                'content-type': 'application/json',
                'accept-encoding': 'br, gzip',
              },
              body: '{}',
            },
          ])
        },
      })
    }

    console.log(
      `\nthrough Caddy (HTTPS, HTTP/1.1 from the load generator) on PostgreSQL; ${options.connections} connections for the feed (${options.duration} s), ${TOGGLERS} for the seats (${CHANGES_PER_MEMBER} changes each)`,
    )
    console.log(
      '\n| arrangement | call | req/s | p50 | p99 | not 200 | CPU s: apps / PostgreSQL / Caddy / load | cores busy |',
    )
    console.log('|---|---|---|---|---|---|---|---|')
    for (const r of rows) {
      const total = r.cpu.apps + r.cpu.postgres + r.cpu.caddy + r.cpu.load
      console.log(
        `| ${r.arrangement} | ${r.call} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.errors} | ` +
          `${r.cpu.apps.toFixed(1)} / ${r.cpu.postgres.toFixed(1)} / ${r.cpu.caddy.toFixed(1)} / ${r.cpu.load.toFixed(1)} | ${(total / r.seconds).toFixed(2)} |`,
      )
    }
    const ratio = (call: string) => {
      const [one, two] = rows.filter((r) => r.call === call)
      return (two!.rps / one!.rps).toFixed(2)
    }
    console.log(
      `\n2 processes ÷ 1: the feed ${ratio(`GET ${FEED}`)}, the seat change ${ratio('POST /register/:id/ (40 members, 5 podclubs)')}`,
    )
  } finally {
    await stack?.stop()
    await smtp.stop()
  }
}
