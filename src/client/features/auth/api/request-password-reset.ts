import { useMutation } from '@tanstack/react-query'
import type { CreatePasswordResetBody } from '#contract/accounts'
import { okSchema } from '#contract/common'
import { api } from '#client/lib/api-client'

/** POST /auth/passwordreset/: answers alike whether or not the address has an account. */
export function requestPasswordReset(body: CreatePasswordResetBody) {
  return api.post('/auth/passwordreset/', okSchema, { body })
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset })
}
