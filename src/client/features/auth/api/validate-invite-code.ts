import { useMutation } from '@tanstack/react-query'
import { validateInviteCodeEndpoint } from '#contract/auth'
import { callApi } from '#client/lib/api-client'

/** Resolves when the code would let someone sign up now. */
export function validateInviteCode(code: string) {
  return callApi(validateInviteCodeEndpoint, { body: { code } })
}

export function useValidateInviteCode() {
  return useMutation({ mutationFn: validateInviteCode })
}
