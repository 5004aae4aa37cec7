import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/client'
import { jobs } from '../db/schema/index'
import { transaction } from '../db/transaction'
import { AppError } from '../lib/app-error'
import { fixedClock } from '../lib/clock'
import { buildTestApp, type TestApp } from '../testing/test-app'
import { createTestDatabase, type TestDatabase } from '../testing/test-db'
import { type AnyJobDefinition, defineJob, enqueueJob, type JobDefinition } from './job'
import { createJobRunner, type JobOutcome, type JobRunnerOptions } from './job-runner'

const clock = fixedClock('2030-05-01T12:00:00Z')
let database: TestDatabase
let t: TestApp
beforeAll(async () => {
  database = await createTestDatabase()
  t = await buildTestApp({ clock, database })
})
afterAll(async () => {
  await t.close()
  await database.close()
})

function makeLog() {
  const entries: Array<{ level: string; obj: object; msg: string }> = []
  const at = (level: string) => (obj: object, msg: string) => void entries.push({ level, obj, msg })
  return { entries, info: at('info'), warn: at('warn'), error: at('error') }
}

/** A promise a test settles by hand. */
function gate() {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/** A job kind of this test file alone, so runners here never claim another file's jobs. */
let kindSeq = 0
function testJob<P>(
  run: JobDefinition<P>['run'],
  payloadSchema: z.ZodType<P> = z.object({ n: z.number() }) as unknown as z.ZodType<P>,
) {
  kindSeq += 1
  return defineJob({ kind: `test-job-${kindSeq}-${Math.random()}`, payloadSchema, run })
}

function runner(job: AnyJobDefinition, opts: Partial<JobRunnerOptions> = {}) {
  const log = makeLog()
  const outcomes: JobOutcome[] = []
  const r = createJobRunner({
    deps: t.deps,
    jobs: [job],
    log,
    onFinish: (_kind, outcome) => void outcomes.push(outcome),
    ...opts,
  })
  return Object.assign(r, { log, outcomes })
}

const queue = <P>(job: JobDefinition<P>, payload: P) =>
  transaction(t.deps, (tx) => enqueueJob(tx, job, payload, { now: clock.now() }))

async function jobRow(id: number) {
  const [row] = await t.db.select().from(jobs).where(eq(jobs.id, id))
  return row!
}

describe('the job runner', () => {
  it('runs a queued job, writing its progress as it goes and its result at the end', async () => {
    const seen: Array<{ status: string; done: number; total: number | null }> = []
    const job = testJob<{ n: number }>(async (deps, { n }, progress) => {
      for (let i = 1; i <= n; i++) {
        await progress({ done: i, total: n })
        const [row] = await deps.db.select().from(jobs).where(eq(jobs.kind, job.kind))
        seen.push({ status: row!.status, done: row!.done, total: row!.total })
      }
      return { counted: n }
    })
    const wakes = t.jobWakes()
    const queued = await queue(job, { n: 3 })
    expect(t.jobWakes()).toBe(wakes + 1)
    const r = runner(job)
    expect(await r.runOnce()).toBe(true)
    expect(seen).toEqual([
      { status: 'running', done: 1, total: 3 },
      { status: 'running', done: 2, total: 3 },
      { status: 'running', done: 3, total: 3 },
    ])
    const row = await jobRow(queued.id)
    expect(row).toMatchObject({ status: 'done', done: 3, total: 3, result: { counted: 3 } })
    expect(row.attempts).toBe(1)
    expect(row.lockedUntil).toBeNull()
    expect(row.finishedAt).not.toBeNull()
    expect(r.outcomes).toEqual(['done'])
    expect(await r.runOnce()).toBe(false)
  })

  it('claims no job of a kind it does not know', async () => {
    const known = testJob(async () => ({}))
    const other = testJob(async () => ({}))
    const queued = await queue(other, { n: 1 })
    expect(await runner(known).runOnce()).toBe(false)
    expect((await jobRow(queued.id)).status).toBe('queued')
  })

  it("records a refusal's message for the operator, and a generic one for anything else", async () => {
    const refused = testJob(async () => {
      throw new AppError('BAD_REQUEST', 'podclub 7 (podclub_2) is cancelled.')
    })
    const broken = testJob(async () => {
      throw new Error('column "secret" does not exist')
    })
    const a = await queue(refused, { n: 1 })
    const b = await queue(broken, { n: 1 })
    const r1 = runner(refused)
    const r2 = runner(broken)
    await r1.runOnce()
    await r2.runOnce()
    expect(await jobRow(a.id)).toMatchObject({
      status: 'failed',
      error: 'podclub 7 (podclub_2) is cancelled.',
    })
    const failed = await jobRow(b.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toBe(
      `The job stopped on an unexpected error; the server log has the details (job ${b.id}).`,
    )
    expect(failed.error).not.toContain('secret')
    expect(r2.log.entries.find((e) => e.level === 'error')?.msg).toBe('job: failed')
    expect(r2.outcomes).toEqual(['failed'])
  })

  it('takes over a job whose run crashed once its lease has run out, and not before', async () => {
    let runs = 0
    const job = testJob(async () => {
      runs += 1
      return { ok: true }
    })
    const queued = await queue(job, { n: 1 })
    // As a process that died mid-run leaves it: running, claimed once, its lease still on.
    await t.db
      .update(jobs)
      .set({
        status: 'running',
        attempts: 1,
        lockedUntil: new Date(clock.now().getTime() + 30_000),
      })
      .where(eq(jobs.id, queued.id))
    const r = runner(job)
    expect(await r.runOnce()).toBe(false)
    clock.advance(31_000)
    expect(await r.runOnce()).toBe(true)
    expect(runs).toBe(1)
    expect(await jobRow(queued.id)).toMatchObject({ status: 'done', attempts: 2 })
  })

  it('gives up on a job whose every attempt ended in a crash, without running it again', async () => {
    let runs = 0
    const job = testJob(async () => {
      runs += 1
      return {}
    })
    const queued = await queue(job, { n: 1 })
    await t.db
      .update(jobs)
      .set({ status: 'running', attempts: 3, lockedUntil: new Date(clock.now().getTime() - 1) })
      .where(eq(jobs.id, queued.id))
    await runner(job, { maxAttempts: 3 }).runOnce()
    expect(runs).toBe(0)
    expect(await jobRow(queued.id)).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'The job did not finish in 3 attempts (each ended by a restart).',
    })
  })

  it('refuses a payload its schema does not accept', async () => {
    const job = testJob(async () => ({}))
    const queued = await queue(job, { n: 1 })
    await t.db
      .update(jobs)
      .set({ payload: { n: 'one' } })
      .where(eq(jobs.id, queued.id))
    await runner(job).runOnce()
    expect(await jobRow(queued.id)).toMatchObject({
      status: 'failed',
      error: 'The job was queued with a request it cannot read.',
    })
  })

  it('puts a job that met an unreachable database back in the queue for later', async () => {
    let calls = 0
    const job = testJob(async () => {
      calls += 1
      if (calls === 1) {
        throw Object.assign(new Error('terminating connection'), { code: '57P01' })
      }
      return { ok: true }
    })
    const queued = await queue(job, { n: 1 })
    const r = runner(job)
    await r.runOnce()
    const waiting = await jobRow(queued.id)
    expect(waiting.status).toBe('queued')
    expect(waiting.runAfter.getTime()).toBe(clock.now().getTime() + 30_000)
    expect(await r.runOnce()).toBe(false)
    clock.advance(30_000)
    await r.runOnce()
    expect(await jobRow(queued.id)).toMatchObject({ status: 'done', attempts: 2 })
    expect(r.outcomes).toEqual(['retry', 'done'])
  })

  it('stop() ends the run at its next progress report and hands the job back', async () => {
    const midway = gate()
    const resume = gate()
    let firstRun = true
    const job = testJob<{ n: number }>(async (_deps, { n }, progress) => {
      await progress({ done: 0, total: n })
      if (firstRun) {
        firstRun = false
        midway.open()
        await resume.promise
      }
      await progress({ done: n, total: n })
      return { finished: true }
    })
    const queued = await queue(job, { n: 5 })
    const first = runner(job)
    const running = first.runOnce()
    await midway.promise
    let stopped = false
    const stopping = first.stop().then(() => {
      stopped = true
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(stopped).toBe(false)
    resume.open()
    await stopping
    expect(await running).toBe(true)
    expect(first.outcomes).toEqual(['handed-back'])
    // Handed back: queued, its attempt given back, nobody's lease on it.
    expect(await jobRow(queued.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      lockedUntil: null,
    })
    expect(await first.runOnce()).toBe(false)
    const next = runner(job)
    await next.runOnce()
    expect(await jobRow(queued.id)).toMatchObject({ status: 'done', result: { finished: true } })
  })

  it('ends a run whose job was taken over meanwhile, and writes nothing more to it', async () => {
    const midway = gate()
    const resume = gate()
    const job = testJob<{ n: number }>(async (_deps, _payload, progress) => {
      await progress({ done: 1, total: 3 })
      midway.open()
      await resume.promise
      await progress({ done: 2, total: 3 })
      return { finished: true }
    })
    const queued = await queue(job, { n: 3 })
    const r = runner(job)
    const running = r.runOnce()
    await midway.promise
    // Another process's claim, after this one's lease ran out: a lease of its own.
    const theirs = new Date(clock.now().getTime() + 999_000)
    await t.db.update(jobs).set({ lockedUntil: theirs, done: 0 }).where(eq(jobs.id, queued.id))
    resume.open()
    await running
    expect(r.outcomes).toEqual(['lost'])
    expect(await jobRow(queued.id)).toMatchObject({
      status: 'running',
      done: 0,
      lockedUntil: theirs,
      result: null,
    })
  })

  it('runs a job once when two processes look for work at the same time', async () => {
    let runs = 0
    const job = testJob(async () => {
      runs += 1
      await new Promise((resolve) => setTimeout(resolve, 50))
      return {}
    })
    const queued = await queue(job, { n: 1 })
    const other: Database = await database.connectAgain()
    try {
      const here = runner(job)
      const there = runner(job, { deps: { ...t.deps, db: other.db } })
      const claimed = await Promise.all([here.runOnce(), there.runOnce()])
      expect(claimed.filter(Boolean)).toHaveLength(1)
      expect(runs).toBe(1)
      expect((await jobRow(queued.id)).status).toBe('done')
    } finally {
      await other.close()
    }
  })
})
