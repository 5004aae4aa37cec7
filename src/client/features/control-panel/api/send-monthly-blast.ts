import { useMutation } from '@tanstack/react-query'
import type { CreateBlastBody } from '#contract/control-panel'
import { jobResponseSchema } from '#contract/jobs'
import { api } from '#client/lib/api-client'

/**
 * POST /monthlyblast/: queues the monthly blast to every member who has not unsubscribed. The
 * server answers 202 at once with the job that sends it; `useJob` follows it.
 */
export function sendMonthlyBlast(body: CreateBlastBody) {
  return api.post('/monthlyblast/', jobResponseSchema, { body })
}

export function useSendMonthlyBlast() {
  return useMutation({ mutationFn: sendMonthlyBlast })
}
