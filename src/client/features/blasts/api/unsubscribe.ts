import { useMutation } from '@tanstack/react-query'
import { unsubscribeResponseSchema } from '#contract/control-panel'
import { api } from '#client/lib/api-client'

/** POST /unsubscribe/: the signed link of a blast turns monthly blasts off. Public. */
export function unsubscribe(body: { uid: number; token: string }) {
  return api.post('/unsubscribe/', unsubscribeResponseSchema, { body })
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe })
}
