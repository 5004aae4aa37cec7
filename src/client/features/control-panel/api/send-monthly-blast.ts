import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreateBlastBody } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'

/**
 * Queues the monthly blast to every member who has not unsubscribed. The server answers 202 at
 * once with the job that sends it; `useJob` follows it.
 */
export function sendMonthlyBlast(body: CreateBlastBody) {
  return callApi(apiRoutes.sendMonthlyBlast, { body })
}

export function useSendMonthlyBlast() {
  return useMutation({ mutationFn: sendMonthlyBlast })
}
