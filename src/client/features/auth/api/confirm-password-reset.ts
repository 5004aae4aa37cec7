import { useMutation } from '@tanstack/react-query'
import { confirmPasswordResetEndpoint, type ConfirmPasswordResetBody } from '#contract/accounts'
import { callApi } from '#client/lib/api-client'

/** Sets the new password; every session of the account ends. */
export function confirmPasswordReset(body: ConfirmPasswordResetBody) {
  return callApi(confirmPasswordResetEndpoint, { body })
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset })
}
