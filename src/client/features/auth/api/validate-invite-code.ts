import { useMutation } from '@tanstack/react-query'
import { validateInviteCodeResponseSchema } from '#contract/auth'
import { api } from '#client/lib/api-client'

/** POST /validate_invite_code/: resolves when the code would let someone sign up now. */
export function validateInviteCode(code: string) {
  return api.post('/validate_invite_code/', validateInviteCodeResponseSchema, { body: { code } })
}

export function useValidateInviteCode() {
  return useMutation({ mutationFn: validateInviteCode })
}
