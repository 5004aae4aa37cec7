import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreateBlastBody } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'

/** The monthly blast, sent to super users only. */
export function sendTestBlast(body: CreateBlastBody) {
  return callApi(apiRoutes.sendTestBlast, { body })
}

export function useSendTestBlast() {
  return useMutation({ mutationFn: sendTestBlast })
}
