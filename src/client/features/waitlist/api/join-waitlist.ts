import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreateWaitlistEntryBody } from '#contract/accounts'
import { callApi } from '#client/lib/api-client'

export function joinWaitlist(body: CreateWaitlistEntryBody) {
  return callApi(apiRoutes.joinWaitlist, { body })
}

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist })
}
