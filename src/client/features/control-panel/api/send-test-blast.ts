import { useMutation } from '@tanstack/react-query'
import { sendTestBlastEndpoint, type CreateBlastBody } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'

/** The monthly blast, sent to super users only. */
export function sendTestBlast(body: CreateBlastBody) {
  return callApi(sendTestBlastEndpoint, { body })
}

export function useSendTestBlast() {
  return useMutation({ mutationFn: sendTestBlast })
}
