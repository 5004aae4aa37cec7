import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { jobResponseSchema } from '#contract/jobs'
import { type BackgroundWork, createBackgroundWork } from './background'
import { transaction } from './db/transaction'
import type { AppDeps } from './deps'
import { enqueueMail } from './features/mail/mail.service'
import type { OutboundMessage } from './features/mail/mail.transport'
import { insertPodclub } from './features/podclubs/podclubs.fixtures'
import { operatorAgent } from './features/polls/polls.testing'
import { buildApp, type App } from './app'
import { systemClock } from './lib/clock'
import { buildTestApp, createUser, type TestApp } from './testing/test-app'

/**
 * The background work as main.ts wires it: the app's deps wake the scheduler's tasks when a
 * transaction commits mail or a job. Intervals of an hour, so only a wake-up explains a run.
 */
let t: TestApp
let app: App
let work: BackgroundWork
const sent: OutboundMessage[] = []
beforeAll(async () => {
  t = await buildTestApp({ clock: systemClock })
  const wake = { outbox: () => {}, jobs: () => {} }
  const deps: AppDeps = {
    ...t.deps,
    wakeOutbox: () => wake.outbox(),
    wakeJobs: () => wake.jobs(),
  }
  app = await buildApp(deps)
  await app.ready()
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: console.error }
  work = createBackgroundWork({
    deps,
    transport: { send: async (m) => void sent.push(m), close: () => {} },
    log: { ...log, child: () => log },
    metrics: app.metrics,
    intervalsMs: { outbox: 3_600_000, jobs: 3_600_000 },
  })
  wake.outbox = work.wakeOutbox
  wake.jobs = work.wakeJobs
  work.start()
})
afterAll(async () => {
  await work?.stop()
  await app?.close()
  await t?.close()
})

describe('the background work', () => {
  it('sends mail as soon as the transaction that queued it commits', async () => {
    await transaction({ ...t.deps, wakeOutbox: work.wakeOutbox }, (tx) =>
      enqueueMail(tx, { to: 'ada@example.org', subject: 'Right away', text: 'x', kind: 'test' }),
    )
    await vi.waitFor(() => expect(sent.map((m) => m.subject)).toContain('Right away'), {
      timeout: 5_000,
    })
  })

  it('runs a monthly blast asked for through the API, then sends its mail, all on its own', async () => {
    const host = await createUser(t)
    const ids = []
    for (const days of [10, 11, 12]) {
      const startsAt = new Date(Date.now() + days * 86_400_000)
      ids.push((await insertPodclub(t.db, host.id, { startsAt })).id)
    }
    const operator = await operatorAgent({ ...t, app })
    const res = await operator.post('/api/v1/monthlyblast/', {
      podclub_1: ids[0],
      podclub_2: ids[1],
      podclub_3: ids[2],
    })
    expect(res.statusCode, res.body).toBe(202)
    const { id } = jobResponseSchema.parse(res.json()).data
    await vi.waitFor(
      async () => {
        const job = jobResponseSchema.parse(
          (await operator.get(`/api/v1/controlpanel/jobs/${id}/`)).json(),
        ).data
        expect(job.status).toBe('done')
      },
      { timeout: 10_000 },
    )
    await vi.waitFor(
      () =>
        expect(sent.filter((m) => m.subject.startsWith('This month at podclub'))).not.toHaveLength(
          0,
        ),
      { timeout: 10_000 },
    )
  })
})
