import { useMutation } from '@tanstack/react-query'
import { sendMonthlyBlastEndpoint, type CreateBlastBody } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'

/** The monthly blast to every member who has not unsubscribed. */
export function sendMonthlyBlast(body: CreateBlastBody) {
  return callApi(sendMonthlyBlastEndpoint, { body })
}

export function useSendMonthlyBlast() {
  return useMutation({ mutationFn: sendMonthlyBlast })
}
