import { useMutation } from '@tanstack/react-query'
import type { ConfirmPasswordResetBody } from '#contract/accounts'
import { okSchema } from '#contract/common'
import { api } from '#client/lib/api-client'

/** POST /auth/passwordreset/confirm/: sets the new password; every session of the account ends. */
export function confirmPasswordReset(body: ConfirmPasswordResetBody) {
  return api.post('/auth/passwordreset/confirm/', okSchema, { body })
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset })
}
