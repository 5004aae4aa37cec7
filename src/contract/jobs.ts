import { z } from 'zod'
import { envelope, idSchema } from './common'
import { defineEndpoint } from './endpoint'

/** Long work taken off the request that asked for it (a monthly blast): where it stands. */
export const jobStatusSchema = z.enum(['queued', 'running', 'done', 'failed'])
export type JobStatus = z.infer<typeof jobStatusSchema>

export const jobSchema = z.object({
  id: z.number().int(),
  /** What the job does, such as `monthly-blast`. */
  kind: z.string(),
  status: jobStatusSchema,
  /** Progress: `done` out of `total` (null until the job knows its size). */
  done: z.number().int().min(0),
  total: z.number().int().min(0).nullable(),
  /** What a finished job produced; its shape is the kind's own (see `monthlyBlastResultSchema`). */
  result: z.record(z.string(), z.unknown()).nullable(),
  /** Why a failed job failed, written for an operator. */
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
})
export type Job = z.infer<typeof jobSchema>
export const jobResponseSchema = envelope(jobSchema)

export const getJobParamsSchema = z.object({ id: idSchema })

/** A job is over, one way or the other: the page stops asking about it. */
export const isJobSettled = (job: Pick<Job, 'status'>) =>
  job.status === 'done' || job.status === 'failed'

/** Where a job an operator started stands (the monthly blast), polled while it runs. */
export const getJobEndpoint = defineEndpoint({
  method: 'GET',
  path: '/controlpanel/jobs/:id/',
  access: 'superuser',
  tags: ['control panel'],
  summary: 'Where a job an operator started stands (the monthly blast)',
  params: getJobParamsSchema,
  response: { 200: jobResponseSchema },
})
