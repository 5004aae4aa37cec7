import { useMutation } from '@tanstack/react-query'
import type { CreateWaitlistEntryBody } from '#contract/accounts'
import { okSchema } from '#contract/common'
import { api } from '#client/lib/api-client'

/** POST /waitlist/ */
export function joinWaitlist(body: CreateWaitlistEntryBody) {
  return api.post('/waitlist/', okSchema, { body })
}

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist })
}
