import { useMutation } from '@tanstack/react-query'
import { requestPasswordResetEndpoint, type CreatePasswordResetBody } from '#contract/accounts'
import { callApi } from '#client/lib/api-client'

/** Answers alike whether or not the address has an account. */
export function requestPasswordReset(body: CreatePasswordResetBody) {
  return callApi(requestPasswordResetEndpoint, { body })
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset })
}
