import { useMutation } from '@tanstack/react-query'
import { blastResponseSchema, type CreateBlastBody } from '#contract/control-panel'
import { api } from '#client/lib/api-client'

/** POST /testmonthlyblast/: the monthly blast, sent to super users only. */
export function sendTestBlast(body: CreateBlastBody) {
  return api.post('/testmonthlyblast/', blastResponseSchema, { body })
}

export function useSendTestBlast() {
  return useMutation({ mutationFn: sendTestBlast })
}
