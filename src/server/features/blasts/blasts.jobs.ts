import { count } from 'drizzle-orm'
import { z } from 'zod'
import { clubMonthKey } from '#contract/club-time'
import {
  createBlastBodySchema,
  type CreateBlastBody,
  type MonthlyBlastResult,
} from '#contract/control-panel'
import type { Job } from '#contract/jobs'
import { users } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { defineJob, enqueueJob, toJobView } from '../../jobs/job'
import { audienceFilter, blastPodclubs, queueBlastMail } from './blasts.service'

/**
 * Queues the monthly blast's mail, 500 members a transaction, reporting how many members it has
 * reached out of those subscribed when it started. Run again after a crash or a shutdown, it
 * starts over and the dedupe keys skip whoever already has it: each member gets it once.
 */
export const monthlyBlastJob = defineJob({
  kind: 'monthly-blast',
  payloadSchema: z.object({
    blast: createBlastBodySchema,
    month: z.string().regex(/^\d{4}-\d{2}$/),
  }),
  async run(deps, { blast, month }, progress) {
    // Checked again: a podclub cancelled or started since the request is not advertised.
    const list = await blastPodclubs(deps, blast)
    const [{ n: total } = { n: 0 }] = await deps.db
      .select({ n: count() })
      .from(users)
      .where(audienceFilter('members'))
    await progress({ done: 0, total })
    const result: MonthlyBlastResult = await queueBlastMail(
      deps,
      list,
      'members',
      month,
      (reached) => progress({ done: reached, total }),
    )
    return result
  },
})

/**
 * The monthly blast to every member, as a job: the three podclubs are checked now, so a wrong id
 * is refused at once, and the mail is queued by the job runner while the control panel shows
 * its progress. The club's month (New York) is taken now, so a run that starts after midnight
 * on the last day still belongs to the month it was asked in, and its dedupe keys with it.
 */
export async function queueMonthlyBlast(
  deps: AppDeps,
  body: CreateBlastBody,
  requestedById: number,
): Promise<Job> {
  await blastPodclubs(deps, body)
  const now = deps.clock.now()
  const row = await transaction(deps, (tx) =>
    enqueueJob(
      tx,
      monthlyBlastJob,
      { blast: body, month: clubMonthKey(now) },
      { now, requestedById },
    ),
  )
  return toJobView(row)
}
