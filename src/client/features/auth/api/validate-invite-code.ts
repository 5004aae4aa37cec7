import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** Resolves when the code would let someone sign up now. */
export function validateInviteCode(code: string) {
  return callApi(apiRoutes.validateInviteCode, { body: { code } })
}

export function useValidateInviteCode() {
  return useMutation({ mutationFn: validateInviteCode })
}
