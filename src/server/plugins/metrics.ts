import { isIP } from 'node:net'
import { sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { PoolStats } from '../db/client'
import type { AppDeps } from '../deps'
import type { OutboxRunResult } from '../features/mail/outbox.worker'
import type { JobOutcome } from '../jobs/job-runner'
import type { RunOutcome } from '../jobs/scheduler'
import { AppError } from '../lib/app-error'
import { loggableError } from '../lib/db-errors'
import { safeEqual, sha256 } from '../lib/tokens'

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics: main.ts reports the scheduler's and the runner's work here. */
    metrics: AppMetrics
  }
}

/**
 * The process's own figures (CPU, memory, event loop, GC), prom-client's defaults. Collected once
 * per process, however many apps it builds (tests build many): they describe the process.
 */
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

/** Longest a scrape waits for Redis before reporting it degraded (its commands give up sooner). */
const REDIS_PING_TIMEOUT_MS = 1_000

export type MetricsSources = {
  db: AppDeps['db']
  clock: AppDeps['clock']
  redis?: AppDeps['redis']
  /** The PostgreSQL pool's figures; absent on PGlite, one connection inside the process. */
  poolStats?: () => PoolStats
  onCollectError?: (what: string, err: unknown) => void
}

export type AppMetrics = ReturnType<typeof createMetrics>

/**
 * The app's metrics, in a registry of its own: figures kept as things happen (requests, runs,
 * deliveries) and figures read from the database when scraped (the outbox, the pool).
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry()
  const registers = [registry]
  const collectError = (what: string, err: unknown) => sources.onCollectError?.(what, err)

  const requests = new Counter({
    name: 'podclub_http_requests_total',
    help: 'Requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers,
  })
  const requestSeconds = new Histogram({
    name: 'podclub_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  })

  new Gauge({
    name: 'podclub_outbox_pending_messages',
    help: 'E-mails waiting in the outbox (pending or being sent).',
    registers,
    async collect() {
      try {
        this.set((await readOutbox(sources)).pending)
      } catch (err) {
        collectError('outbox', err)
        this.set(Number.NaN)
      }
    },
  })
  new Gauge({
    name: 'podclub_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest e-mail still waiting in the outbox; 0 when none waits.',
    registers,
    async collect() {
      try {
        this.set((await readOutbox(sources)).oldestSeconds)
      } catch (err) {
        collectError('outbox', err)
        this.set(Number.NaN)
      }
    },
  })
  const deliveries = new Counter({
    name: 'podclub_outbox_deliveries_total',
    help: 'E-mails this process delivered.',
    registers,
  })
  const sendFailures = new Counter({
    name: 'podclub_outbox_send_failures_total',
    help: 'Failed sends of this process: retried later, or failed for good.',
    labelNames: ['outcome'] as const,
    registers,
  })
  const scheduledRuns = new Counter({
    name: 'podclub_scheduled_runs_total',
    help: 'Runs of the scheduler tasks: ok, failed, or skipped (the previous run was still going).',
    labelNames: ['task', 'outcome'] as const,
    registers,
  })
  const scheduledSeconds = new Histogram({
    name: 'podclub_scheduled_run_duration_seconds',
    help: 'Time a scheduler task run took.',
    labelNames: ['task'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
    registers,
  })
  const jobRuns = new Counter({
    name: 'podclub_job_runs_total',
    help: 'Job runs this process ended: done, failed, retry, handed-back (at shutdown) or lost.',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  })
  new Gauge({
    name: 'podclub_db_pool_connections',
    help: 'Database connections: total, idle, and requests waiting for one (PostgreSQL). PGlite has one, inside the process.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = sources.poolStats?.()
      if (!stats) {
        this.set({ state: 'total' }, 1)
        return
      }
      this.set({ state: 'total' }, stats.total)
      this.set({ state: 'idle' }, stats.idle)
      this.set({ state: 'waiting' }, stats.waiting)
    },
  })
  new Gauge({
    name: 'podclub_redis_degraded',
    help: 'Whether the configured Redis does not answer (rate limits count in the database meanwhile); 0 without Redis.',
    registers,
    async collect() {
      this.set(sources.redis && !(await answers(sources.redis)) ? 1 : 0)
    },
  })

  let liveStreams: (() => number) | undefined
  new Gauge({
    name: 'podclub_live_streams',
    help: 'Live streams (GET /events/) this process holds open.',
    registers,
    collect() {
      this.set(liveStreams?.() ?? 0)
    },
  })

  const liveRefusals = new Counter({
    name: 'podclub_live_streams_refused_total',
    help: 'Live streams refused: the process held as many as it may (process), or the address or member their share.',
    labelNames: ['reason'] as const,
    registers,
  })

  return {
    registry,
    /** A live stream refused, and why (`process`: at the cap of the whole process). */
    liveStreamRefused(reason: 'process' | 'address' | 'member') {
      liveRefusals.inc({ reason })
    },
    /** Where the gauge of open live streams reads its figure (the live feature's hub). */
    countLiveStreams(count: () => number) {
      liveStreams = count
    },
    observeRequest(method: string, route: string, statusCode: number, seconds: number) {
      const labels = { method, route, status_code: String(statusCode) }
      requests.inc(labels)
      requestSeconds.observe(labels, seconds)
    },
    scheduledRun(task: string, outcome: RunOutcome, seconds: number) {
      scheduledRuns.inc({ task, outcome })
      if (outcome !== 'skipped') scheduledSeconds.observe({ task }, seconds)
    },
    jobRun(kind: string, outcome: JobOutcome) {
      jobRuns.inc({ kind, outcome })
    },
    outboxRun(result: OutboxRunResult) {
      deliveries.inc(result.delivered)
      sendFailures.inc({ outcome: 'retried' }, result.retried)
      sendFailures.inc({ outcome: 'failed' }, result.failed)
    },
    /** The Prometheus text of the app's and the process's metrics. */
    async render(): Promise<{ contentType: string; text: string }> {
      const merged = Registry.merge([processMetrics(), registry])
      return { contentType: merged.contentType, text: await merged.metrics() }
    },
  }
}

async function readOutbox(sources: MetricsSources) {
  const now = sources.clock.now().toISOString()
  const result = await sources.db.execute<{ pending: number; oldest: number | null }>(sql`
    select count(*)::int as pending,
           extract(epoch from (${now}::timestamptz - min(created_at)))::float8 as oldest
    from outbox_messages where status in ('pending', 'sending')`)
  // node-postgres answers { rows }, PGlite the rows themselves.
  const rows = (result as unknown as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])
  const row = rows[0] as { pending: number; oldest: number | null } | undefined
  return { pending: Number(row?.pending ?? 0), oldestSeconds: Math.max(0, row?.oldest ?? 0) }
}

async function answers(redis: NonNullable<AppDeps['redis']>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), REDIS_PING_TIMEOUT_MS)
      }),
    ])
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** The label of a request's route: its pattern, never the URL (which would carry ids and secrets). */
function routeLabel(request: FastifyRequest, statusCode: number): string {
  if (request.is404) return statusCode < 400 ? '(page)' : '(unmatched)'
  return request.routeOptions.url ?? '(unmatched)'
}

/** Counts and times every answer, and gives the app `app.metrics`. */
export const metricsPlugin = fp<{ deps: AppDeps }>(
  async (app: FastifyInstance, { deps }) => {
    const metrics = createMetrics({
      db: deps.db,
      clock: deps.clock,
      redis: deps.redis,
      poolStats: deps.poolStats,
      onCollectError: (what, err) =>
        app.log.warn({ err: loggableError(err), what }, 'metrics: could not read a figure'),
    })
    app.decorate('metrics', metrics)
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(
        request.method,
        routeLabel(request, reply.statusCode),
        reply.statusCode,
        reply.elapsedTime / 1000,
      )
    })
  },
  { name: 'metrics' },
)

const isLoopback = (address: string | undefined) => {
  if (!address) return false
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address
  return isIP(plain) === 4 ? plain.startsWith('127.') : plain === '::1'
}

/**
 * Headers a proxy (or a CDN) adds to say whom it asks for, or that it passed the request on. A
 * loopback connection carrying any of them was forwarded by something on this machine on someone
 * else's behalf, whichever of them that proxy happens to send.
 */
const PROXY_HEADERS = [
  'forwarded',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
] as const

const isForwarded = (request: FastifyRequest) =>
  PROXY_HEADERS.some((name) => request.headers[name] !== undefined)

/**
 * Who may read the metrics: with `METRICS_TOKEN` set, whoever sends it as a bearer token; unset,
 * only a scraper on this machine (loopback, not through a proxy).
 */
function checkMetricsAccess(request: FastifyRequest, token: string | undefined) {
  if (token) {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? ''
    // Hashed first, so the comparison takes as long whatever the length of what was sent.
    if (!safeEqual(sha256(given), sha256(token))) {
      throw new AppError('NOT_AUTHENTICATED', 'A valid metrics token is required.', {
        'www-authenticate': 'Bearer realm="metrics"',
      })
    }
    return
  }
  // The connection itself, not `request.ip`: without a token the process serves metrics only to
  // a scraper that reached it directly (env.ts refuses TRUST_PROXY without METRICS_TOKEN).
  const local =
    isLoopback(request.socket.remoteAddress) && isLoopback(request.ip) && !isForwarded(request)
  if (!local) {
    throw new AppError(
      'FORBIDDEN',
      'The metrics are served to this machine only, unless METRICS_TOKEN is set.',
    )
  }
}

/** `GET /metrics` in the Prometheus text format; outside the API, not public (see README). */
export const metricsRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/metrics',
    { config: { access: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      checkMetricsAccess(request, deps.env.METRICS_TOKEN)
      const { contentType, text } = await app.metrics.render()
      return reply.header('cache-control', 'no-store').type(contentType).send(text)
    },
  )
}
