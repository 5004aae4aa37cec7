import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreatePasswordResetBody } from '#contract/accounts'
import { callApi } from '#client/lib/api-client'

/** Answers alike whether or not the address has an account. */
export function requestPasswordReset(body: CreatePasswordResetBody) {
  return callApi(apiRoutes.requestPasswordReset, { body })
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset })
}
