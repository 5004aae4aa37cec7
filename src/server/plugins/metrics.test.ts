import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createBackgroundWork } from '../background'
import { outboxMessages } from '../db/schema/index'
import { transaction } from '../db/transaction'
import { enqueueMail } from '../features/mail/mail.service'
import type { OutboundMessage } from '../features/mail/mail.transport'
import { createScheduler } from '../jobs/scheduler'
import { systemClock } from '../lib/clock'
import { buildTestApp, createUser, type TestApp } from '../testing/test-app'
import { operatorAgent } from '../features/polls/polls.testing'
import { insertPodclub } from '../features/podclubs/podclubs.fixtures'

const TOKEN = 'metrics-token-0123456789'
let open: TestApp
let guarded: TestApp
beforeAll(async () => {
  open = await buildTestApp({ clock: systemClock })
  guarded = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } })
})
afterAll(async () => {
  await open?.close()
  await guarded?.close()
})

const scrape = (t: TestApp, opts: { from?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    url: '/metrics',
    remoteAddress: opts.from ?? '127.0.0.1',
    headers: opts.headers ?? {},
  })

/** The value of one sample line: `name{labels} value`. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `))
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1))
}

describe('GET /metrics', () => {
  it('answers a scraper on this machine in the Prometheus text format, with process metrics', async () => {
    const res = await scrape(open)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).toContain('# TYPE podclub_http_requests_total counter')
    // A counter of CPU time since the registry began: the kernel counts it in ticks, so a scrape
    // right after start may read 0, but it is there.
    expect(sample(res.body, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0)
    expect(sample(res.body, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(await scrape(open, { from: '::1' })).toMatchObject({ statusCode: 200 })
  })

  it('refuses another address when no token is set, and a proxy asking for someone else', async () => {
    const remote = await scrape(open, { from: '10.1.2.3' })
    expect(remote.statusCode).toBe(403)
    expect(remote.json().code).toBe('FORBIDDEN')
    expect(remote.body).not.toContain('podclub_')
    const viaProxy = await scrape(open, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(viaProxy.statusCode).toBe(403)
  })

  it.each([
    ['forwarded', 'for=203.0.113.9'],
    ['x-real-ip', '203.0.113.9'],
    ['via', '1.1 nginx'],
    ['x-forwarded-host', 'club.example'],
    ['x-forwarded-proto', 'https'],
    ['true-client-ip', '203.0.113.9'],
    ['cf-connecting-ip', '203.0.113.9'],
  ])(
    'refuses a loopback request carrying %s: a proxy on this machine passed it on',
    async (name, value) => {
      const res = await scrape(open, { headers: { [name]: value } })
      expect(res.statusCode, res.body).toBe(403)
      expect(res.body).not.toContain('podclub_')
    },
  )

  it('with METRICS_TOKEN, answers that bearer token from anywhere, and nothing else', async () => {
    const right = { authorization: `Bearer ${TOKEN}` }
    expect((await scrape(guarded, { from: '10.1.2.3', headers: right })).statusCode).toBe(200)
    const none = await scrape(guarded, { from: '10.1.2.3' })
    expect(none.statusCode).toBe(401)
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"')
    const wrong = await scrape(guarded, {
      from: '10.1.2.3',
      headers: { authorization: `Bearer ${TOKEN}x` },
    })
    expect(wrong.statusCode).toBe(401)
    expect(wrong.body).not.toContain('podclub_')
    // Set, the token is needed on this machine too.
    expect((await scrape(guarded)).statusCode).toBe(401)
  })

  it('counts a request by its route pattern and status, never its URL', async () => {
    const host = await createUser(open)
    const podclub = await insertPodclub(open.db, host.id, {
      startsAt: new Date(Date.now() + 10 * 86_400_000),
    })
    const labels = `{method="GET",route="/api/v1/podclubs/:podclubId/",status_code="200"}`
    const before = sample((await scrape(open)).body, 'podclub_http_requests_total', labels) ?? 0
    const res = await open.app.inject({ url: `/api/v1/podclubs/${podclub.id}/` })
    expect(res.statusCode).toBe(200)
    const text = (await scrape(open)).body
    expect(sample(text, 'podclub_http_requests_total', labels)).toBe(before + 1)
    expect(
      sample(
        text,
        'podclub_http_request_duration_seconds_count',
        `{method="GET",route="/api/v1/podclubs/:podclubId/",status_code="200"}`,
      ),
    ).toBe(before + 1)
    expect(text).not.toContain(`/api/v1/podclubs/${podclub.id}/`)
    await open.app.inject({ url: '/api/v1/no/such/secret-token/' })
    const after = (await scrape(open)).body
    expect(
      sample(
        after,
        'podclub_http_requests_total',
        `{method="GET",route="(unmatched)",status_code="404"}`,
      ),
    ).toBeGreaterThanOrEqual(1)
    expect(after).not.toContain('secret-token')
  })

  it("reports the outbox: how many wait, the oldest one's age, deliveries and failures", async () => {
    await transaction(open.deps, (tx) =>
      enqueueMail(tx, [
        { to: 'a@example.org', subject: 'One', text: 'x', kind: 'test' },
        { to: 'b@example.org', subject: 'Two', text: 'x', kind: 'test' },
      ]),
    )
    const [oldest] = await open.db
      .update(outboxMessages)
      .set({ createdAt: new Date(Date.now() - 90_000) })
      .where(eq(outboxMessages.subject, 'One'))
      .returning()
    expect(oldest).toBeDefined()
    const waiting = (await scrape(open)).body
    expect(sample(waiting, 'podclub_outbox_pending_messages')).toBeGreaterThanOrEqual(2)
    const age = sample(waiting, 'podclub_outbox_oldest_pending_age_seconds')!
    expect(age).toBeGreaterThanOrEqual(90)
    expect(age).toBeLessThan(150)

    // The outbox as a server runs it, reporting to the app's metrics.
    const sent: OutboundMessage[] = []
    let fail = true
    const work = createBackgroundWork({
      deps: open.deps,
      transport: {
        send: async (m) => {
          if (m.subject === 'Two' && fail) {
            fail = false
            throw new Error('452 mailbox busy')
          }
          sent.push(m)
        },
        close: () => {},
      },
      log: quietLog(),
      metrics: open.app.metrics,
      intervalsMs: { outbox: 60_000, jobs: 60_000 },
    })
    work.start()
    work.wakeOutbox()
    // 'One' may be delivered before 'Two' is tried: wait until both have been counted.
    await vi.waitFor(async () => {
      expect(sent.map((m) => m.subject)).toContain('One')
      const now = (await scrape(open)).body
      expect(
        sample(now, 'podclub_outbox_send_failures_total', '{outcome="retried"}'),
      ).toBeGreaterThanOrEqual(1)
    })
    await work.stop()
    const after = (await scrape(open)).body
    expect(sample(after, 'podclub_outbox_deliveries_total')).toBeGreaterThanOrEqual(1)
    expect(
      sample(after, 'podclub_scheduled_runs_total', '{task="outbox",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1)
  })

  it('reports job runs and scheduler failures', async () => {
    const operator = await operatorAgent(open)
    const host = await createUser(open)
    const at = (days: number) => new Date(Date.now() + days * 86_400_000)
    const ids = await Promise.all(
      [10, 11, 12].map(
        async (d) => (await insertPodclub(open.db, host.id, { startsAt: at(d) })).id,
      ),
    )
    const queued = await operator.post('/api/v1/monthlyblast/', {
      podclub_1: ids[0],
      podclub_2: ids[1],
      podclub_3: ids[2],
    })
    expect(queued.statusCode).toBe(202)
    const work = createBackgroundWork({
      deps: open.deps,
      transport: { send: async () => {}, close: () => {} },
      log: quietLog(),
      metrics: open.app.metrics,
      intervalsMs: { outbox: 60_000, jobs: 60_000 },
    })
    work.start()
    work.wakeJobs()
    const job = queued.json().data.id as number
    await vi.waitFor(async () => {
      const res = await operator.get(`/api/v1/controlpanel/jobs/${job}/`)
      expect(res.json().data.status).toBe('done')
    })
    await work.stop()

    const failing = createScheduler({
      log: quietLog(),
      onRun: open.app.metrics.scheduledRun,
    })
    failing.add({
      name: 'always-fails',
      intervalMs: 60_000,
      run: async () => {
        throw new Error('no')
      },
    })
    failing.start()
    failing.wake('always-fails')
    await failing.stop()

    const text = (await scrape(open)).body
    expect(
      sample(text, 'podclub_job_runs_total', '{kind="monthly-blast",outcome="done"}'),
    ).toBeGreaterThanOrEqual(1)
    expect(
      sample(text, 'podclub_scheduled_runs_total', '{task="always-fails",outcome="failed"}'),
    ).toBe(1)
  })

  it('reports the database pool, and Redis as not degraded when there is none', async () => {
    const text = (await scrape(open)).body
    expect(sample(text, 'podclub_redis_degraded')).toBe(0)
    const total = sample(text, 'podclub_db_pool_connections', '{state="total"}')
    if (process.env.TEST_ENGINE === 'postgres') {
      expect(total).toBeGreaterThanOrEqual(1)
      expect(sample(text, 'podclub_db_pool_connections', '{state="idle"}')).toBeDefined()
      expect(sample(text, 'podclub_db_pool_connections', '{state="waiting"}')).toBe(0)
    } else {
      // PGlite: one connection, inside the process.
      expect(total).toBe(1)
    }
  })
})

function quietLog() {
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }
  return { ...log, child: () => log }
}
