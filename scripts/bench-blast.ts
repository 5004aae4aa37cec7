// Queues a monthly blast to 10,000 generated members, as the server does (the request queues a
// job, the job runner queues the mail), and reports the time it took and the process's peak
// memory; checks every subscribed member got exactly one message.
// Usage: npm run bench:blast [-- --members 10000] [-- --db postgres]
import { count, eq, sql } from 'drizzle-orm'
import { jobs, outboxMessages, podcasts, podclubs, users } from '../src/server/db/schema/index'
import { queuedJobs } from '../src/server/background'
import type { AppDeps } from '../src/server/deps'
import { queueMonthlyBlast } from '../src/server/features/blasts/blasts.jobs'
import { createJobRunner } from '../src/server/jobs/job-runner'
import { systemClock } from '../src/server/lib/clock'
import { parseEnv } from '../src/server/lib/env'
import { openBenchDatabase } from './bench-database'

const args = process.argv.slice(2)
const option = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const memberCount = Number(option('members') ?? 10_000)
const engine = option('db') === 'postgres' ? 'postgres' : 'pglite'

const { database, drop } = await openBenchDatabase(engine, { inMemory: true })
const { db } = database
try {
  process.stdout.write(`Generating ${memberCount} members on ${engine}...\n`)
  for (let start = 0; start < memberCount; start += 1000) {
    const size = Math.min(1000, memberCount - start)
    await db.insert(users).values(
      Array.from({ length: size }, (_, i) => ({
        username: `bench.${start + i}`,
        email: `bench.${start + i}@example.com`,
        passwordHash: 'not-a-login',
      })),
    )
  }
  // Every 20th member has unsubscribed.
  await db.execute(sql`update users set blasts_unsubscribed_at = now() where id % 20 = 0`)
  const [podcast] = await db.insert(podcasts).values({ name: 'Bench FM' }).returning()
  const host = (await db.select().from(users).limit(1))[0]!
  const trio = await db
    .insert(podclubs)
    .values(
      [1, 2, 3].map((n) => ({
        podcastId: podcast!.id,
        podmeisterId: host.id,
        episodeTitle: `Episode ${n}`,
        startsAt: new Date(Date.now() + n * 86_400_000 * 20),
        location: 'zoom' as const,
      })),
    )
    .returning()

  const env = parseEnv({ APP_URL: 'http://localhost:3000' })
  const deps: AppDeps = {
    env,
    db,
    listen: database.listen,
    clock: systemClock,
    wakeOutbox: () => {},
    wakeJobs: () => {},
    sessionSecret: 'bench-secret-bench-secret-bench-secret',
    clubInviteCode: 'bench',
  }
  const body = { podclub_1: trio[0]!.id, podclub_2: trio[1]!.id, podclub_3: trio[2]!.id }
  const quiet = { info: () => {}, warn: () => {}, error: console.error }
  const runner = createJobRunner({ deps, jobs: queuedJobs, log: quiet })
  /** What the operator's click does: queue the job, then the runner sends it out. */
  async function blast() {
    const job = await queueMonthlyBlast(deps, body, host.id)
    if (!(await runner.runOnce())) throw new Error('the job runner found no job')
    const [row] = await db.select().from(jobs).where(eq(jobs.id, job.id))
    if (row?.status !== 'done') throw new Error(`the blast job ended ${row?.status}: ${row?.error}`)
    return { queued: Number(row.result?.queued), done: row.done, total: row.total }
  }

  global.gc?.()
  const baseline = process.memoryUsage()
  let peakRss = baseline.rss
  let peakHeap = baseline.heapUsed
  const sampler = setInterval(() => {
    const m = process.memoryUsage()
    peakRss = Math.max(peakRss, m.rss)
    peakHeap = Math.max(peakHeap, m.heapUsed)
  }, 20)
  const started = performance.now()
  const { queued, done, total } = await blast()
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  // PGlite answers in the same thread and may starve the sampler: sample once more at the end.
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
  const again = await blast()

  const [{ n: rows } = { n: 0 }] = await db
    .select({ n: count() })
    .from(outboxMessages)
    .where(eq(outboxMessages.kind, 'monthly-blast'))
  const distinct = await db.execute<{ n: number }>(
    sql`select count(distinct lower(to_address))::int as n from outbox_messages where kind = 'monthly-blast'`,
  )
  const [{ n: subscribed } = { n: 0 }] = await db
    .select({ n: count() })
    .from(users)
    .where(sql`blasts_unsubscribed_at is null`)
  // Nobody who unsubscribed may be in the outbox: the count above could hide a swap.
  const [{ n: toUnsubscribed } = { n: 0 }] = await db
    .select({ n: count() })
    .from(outboxMessages)
    .innerJoin(users, eq(users.email, outboxMessages.toAddress))
    .where(
      sql`${outboxMessages.kind} = 'monthly-blast' and ${users.blastsUnsubscribedAt} is not null`,
    )
  const mib = (b: number) => (b / 1024 / 1024).toFixed(1)
  const distinctCount = Number(
    (distinct as unknown as { rows: { n: number }[] }).rows?.[0]?.n ??
      (distinct as unknown as { n: number }[])[0]?.n,
  )
  const ok =
    queued === subscribed &&
    rows === subscribed &&
    distinctCount === subscribed &&
    toUnsubscribed === 0 &&
    done === subscribed &&
    total === subscribed &&
    again.queued === 0
  process.stdout.write(
    [
      `engine: ${engine}`,
      `members: ${memberCount}, subscribed: ${subscribed}`,
      `queued: ${queued} in ${seconds.toFixed(2)} s (${Math.round(queued / seconds)} messages/s), job progress ${done}/${total}`,
      `outbox rows: ${rows}, distinct recipients: ${distinctCount}, to unsubscribed: ${toUnsubscribed}, queued by a repeat: ${again.queued}`,
      `memory: rss ${mib(baseline.rss)} -> peak ${mib(peakRss)} MiB; heap ${mib(baseline.heapUsed)} -> peak ${mib(peakHeap)} MiB`,
      ok
        ? 'ok: every subscribed member queued exactly once, unsubscribed members skipped'
        : 'MISMATCH',
    ].join('\n') + '\n',
  )
  if (!ok) process.exitCode = 1
} finally {
  await database.close()
  await drop()
}
