import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { ConfirmPasswordResetBody } from '#contract/accounts'
import { callApi } from '#client/lib/api-client'

/** Sets the new password; every session of the account ends. */
export function confirmPasswordReset(body: ConfirmPasswordResetBody) {
  return callApi(apiRoutes.confirmPasswordReset, { body })
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset })
}
