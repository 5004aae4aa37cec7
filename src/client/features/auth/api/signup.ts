import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreateSignupBody } from '#contract/auth'
import { callApi } from '#client/lib/api-client'
import { refreshUser } from '#client/lib/auth'

/** Creates the account and its session. */
export function signup(body: CreateSignupBody) {
  return callApi(apiRoutes.signup, { body })
}

/** Spec 2 §4: after signup the user is fetched, which logs them in on this page. */
export function useSignup() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: CreateSignupBody) => {
      await signup(body)
      return refreshUser(queryClient)
    },
  })
}
