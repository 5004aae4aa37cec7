import { useMutation } from '@tanstack/react-query'
import { blastResponseSchema, type CreateBlastBody } from '#contract/control-panel'
import { api } from '#client/lib/api-client'

/** POST /monthlyblast/: the monthly blast to every member who has not unsubscribed. */
export function sendMonthlyBlast(body: CreateBlastBody) {
  return api.post('/monthlyblast/', blastResponseSchema, { body })
}

export function useSendMonthlyBlast() {
  return useMutation({ mutationFn: sendMonthlyBlast })
}
