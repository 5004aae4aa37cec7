import { useMutation } from '@tanstack/react-query'
import { joinWaitlistEndpoint, type CreateWaitlistEntryBody } from '#contract/accounts'
import { callApi } from '#client/lib/api-client'

export function joinWaitlist(body: CreateWaitlistEntryBody) {
  return callApi(joinWaitlistEndpoint, { body })
}

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist })
}
