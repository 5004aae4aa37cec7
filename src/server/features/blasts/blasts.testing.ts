import { expect } from 'vitest'
import type { CreateBlastBody } from '#contract/control-panel'
import { type Job, jobResponseSchema } from '#contract/jobs'
import type { createAgent, TestApp } from '../../testing/test-app'

/**
 * The monthly blast as the control panel sends it: the request is answered 202 with a queued
 * job, the job runner runs it, and the job is read back as the page polls it.
 */
export async function monthlyBlastAs(
  t: TestApp,
  operator: ReturnType<typeof createAgent>,
  body: CreateBlastBody,
): Promise<Job> {
  const res = await operator.post('/api/v1/monthlyblast/', body)
  expect(res.statusCode, res.body).toBe(202)
  const queued = jobResponseSchema.parse(res.json()).data
  expect(queued.status).toBe('queued')
  await t.runJobs()
  const read = await operator.get(`/api/v1/controlpanel/jobs/${queued.id}/`)
  expect(read.statusCode, read.body).toBe(200)
  return jobResponseSchema.parse(read.json()).data
}
