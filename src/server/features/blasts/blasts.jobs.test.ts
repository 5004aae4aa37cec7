import { eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobResponseSchema } from '#contract/jobs'
import { jobs, outboxMessages, podclubs, registrations, users } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { operatorAgent } from '../polls/polls.testing'
import { monthlyBlastJob } from './blasts.jobs'

const DAY = 86_400_000
// 23:30 in New York on the last evening of November: already December in UTC.
const clock = fixedClock('2026-12-01T04:30:00Z')
let t: TestApp
let operator: Awaited<ReturnType<typeof operatorAgent>>
beforeAll(async () => {
  t = await buildTestApp({ clock })
  operator = await operatorAgent(t)
})
afterAll(() => t.close())

async function trio() {
  const host = await createUser(t)
  const at = (days: number) => new Date(clock.now().getTime() + days * DAY)
  const list = [
    await insertPodclub(t.db, host.id, { startsAt: at(10) }),
    await insertPodclub(t.db, host.id, { startsAt: at(11) }),
    await insertPodclub(t.db, host.id, { startsAt: at(12) }),
  ]
  return { podclub_1: list[0]!.id, podclub_2: list[1]!.id, podclub_3: list[2]!.id }
}

const subscribed = () =>
  t.db.select({ email: users.email }).from(users).where(isNull(users.blastsUnsubscribedAt))

const blastMailOf = async (body: Awaited<ReturnType<typeof trio>>) =>
  (await t.db.select().from(outboxMessages)).filter((m) =>
    m.dedupeKey?.includes(`-${body.podclub_1}-${body.podclub_2}-${body.podclub_3}:`),
  )

describe('the monthly blast as a job', () => {
  it('answers 202 at once with the queued job, and queues the mail only when the job runs', async () => {
    const body = await trio()
    const wakes = t.jobWakes()
    const res = await operator.post('/api/v1/monthlyblast/', body)
    expect(res.statusCode, res.body).toBe(202)
    const job = jobResponseSchema.parse(res.json()).data
    expect(job).toMatchObject({
      kind: 'monthly-blast',
      status: 'queued',
      done: 0,
      total: null,
      result: null,
      error: null,
    })
    expect(t.jobWakes()).toBe(wakes + 1)
    expect(await blastMailOf(body)).toEqual([])

    const read = async () =>
      jobResponseSchema.parse((await operator.get(`/api/v1/controlpanel/jobs/${job.id}/`)).json())
        .data
    expect((await read()).status).toBe('queued')
    await t.runJobs()
    const members = await subscribed()
    expect(await read()).toMatchObject({
      status: 'done',
      done: members.length,
      total: members.length,
      result: { queued: members.length },
      error: null,
    })
    expect((await blastMailOf(body)).map((m) => m.toAddress).sort()).toEqual(
      members.map((m) => m.email).sort(),
    )
  })

  it("belongs to the club's month of the request, even when it runs in the next one", async () => {
    const body = await trio()
    const res = await operator.post('/api/v1/monthlyblast/', body)
    expect(res.statusCode).toBe(202)
    clock.advance(2 * 60 * 60_000) // past midnight in New York: December there too
    await t.runJobs()
    const keys = (await blastMailOf(body)).map((m) => m.dedupeKey)
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) expect(key).toMatch(/^blast-2026-11-/)
  })

  it('fails with the reason, queuing nothing, when a podclub was cancelled before it ran', async () => {
    const body = await trio()
    const res = await operator.post('/api/v1/monthlyblast/', body)
    const job = jobResponseSchema.parse(res.json()).data
    await t.db.update(podclubs).set({ status: 'cancelled' }).where(eq(podclubs.id, body.podclub_2))
    await t.runJobs()
    const read = jobResponseSchema.parse(
      (await operator.get(`/api/v1/controlpanel/jobs/${job.id}/`)).json(),
    ).data
    expect(read).toMatchObject({
      status: 'failed',
      error: `podclub ${body.podclub_2} (podclub_2) is cancelled: a blast lists upcoming podclubs only.`,
    })
    expect(await blastMailOf(body)).toEqual([])
  })

  it('refuses a wrong podclub at once, queuing no job', async () => {
    const before = (await t.db.select().from(jobs)).length
    const body = await trio()
    const res = await operator.post('/api/v1/monthlyblast/', { ...body, podclub_3: 999_999 })
    expect(res.statusCode).toBe(404)
    expect(res.json().detail).toBe('podclub 999999 (podclub_3) does not exist.')
    expect((await t.db.select().from(jobs)).length).toBe(before)
  })

  it('answers 404 for a job that does not exist', async () => {
    const res = await operator.get('/api/v1/controlpanel/jobs/999999/')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ detail: 'Job not found', code: 'NOT_FOUND' })
  })

  it('queues each member once and skips the unsubscribed when a run is cut short and run again', async () => {
    // More members than one batch, so the cut falls between two batches.
    await t.db.insert(users).values(
      Array.from({ length: 1_200 }, (_, i) => ({
        username: `blast.crowd.${i}`,
        email: `blast.crowd.${i}@example.com`,
        passwordHash: 'not-a-login',
        blastsUnsubscribedAt: i % 10 === 0 ? clock.now() : null,
      })),
    )
    const body = await trio()
    const payload = { blast: body, month: '2026-11' }
    const reports: Array<{ done: number; total?: number }> = []
    // The first run dies after its first batch, as a process killed mid-blast would.
    await expect(
      monthlyBlastJob.run(t.deps, payload, async (p) => {
        reports.push(p)
        if (p.done > 0) throw new Error('killed')
      }),
    ).rejects.toThrow('killed')
    const members = await subscribed()
    expect(reports).toEqual([
      { done: 0, total: members.length },
      { done: 500, total: members.length },
    ])
    const partial = await blastMailOf(body)
    expect(partial).toHaveLength(500)

    const rerun = await monthlyBlastJob.run(t.deps, payload, async () => {})
    expect(rerun).toEqual({ queued: members.length - 500 })
    const mail = await blastMailOf(body)
    expect(mail.map((m) => m.toAddress).sort()).toEqual(members.map((m) => m.email).sort())
    const leavers = await t.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.username, 'blast.crowd.10'))
    expect(mail.map((m) => m.toAddress)).not.toContain(leavers[0]!.email)
  })

  it('says "you\'re in" where the member takes part, and each podclub\'s seats left when it is queued', async () => {
    const host = await createUser(t)
    const maya = await createUser(t)
    const at = (days: number) => new Date(clock.now().getTime() + days * DAY)
    const seated = await insertPodclub(t.db, host.id, { startsAt: at(10) })
    const hosted = await insertPodclub(t.db, maya.id, { startsAt: at(11) })
    const nearlyFull = await insertPodclub(t.db, host.id, { startsAt: at(12) })
    await t.db.insert(registrations).values({ podclubId: seated.id, userId: maya.id })
    const others = await Promise.all(Array.from({ length: 8 }, () => createUser(t)))
    await t.db
      .insert(registrations)
      .values(others.slice(0, 6).map((u) => ({ podclubId: nearlyFull.id, userId: u.id })))
    const body = { podclub_1: seated.id, podclub_2: hosted.id, podclub_3: nearlyFull.id }
    const res = await operator.post('/api/v1/monthlyblast/', body)
    expect(res.statusCode, res.body).toBe(202)
    // A seat taken between the request and the run: the mail counts it.
    await t.db.insert(registrations).values({ podclubId: nearlyFull.id, userId: others[6]!.id })
    await t.runJobs()
    const mail = await blastMailOf(body)
    const toMaya = mail.find((m) => m.toAddress === maya.email)!
    expect(toMaya.textBody).toContain("You're in: you hold a seat.")
    expect(toMaya.textBody).toContain("You're in: you are its podmeister.")
    expect(toMaya.textBody).toContain('2 seats left.')
    expect(toMaya.textBody).not.toMatch(/Nine seats each/)
    expect(toMaya.textBody).toContain('find a seat')
    const toOther = mail.find((m) => m.toAddress === others[7]!.email)!
    expect(toOther.textBody).toContain('8 seats left.')
    expect(toOther.textBody).toContain('9 seats left.')
    expect(toOther.textBody).not.toContain("You're in")
    const toSeated = mail.find((m) => m.toAddress === others[0]!.email)!
    expect(toSeated.textBody).toContain("You're in: you hold a seat.")
  })
})
