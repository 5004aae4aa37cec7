import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreateLoginBody } from '#contract/auth'
import { callApi } from '#client/lib/api-client'
import { refreshUser } from '#client/lib/auth'

/** Login answers the whoami shape; the session itself is then filled from whoami. */
export function login(body: CreateLoginBody) {
  // Wrong credentials may come back as 401: that is this form's error to show, not an expired
  // session, so the global 401 rule stays out of it.
  return callApi(apiRoutes.login, { body, ignoreUnauthorized: true })
}

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: CreateLoginBody) => {
      await login(body)
      return refreshUser(queryClient)
    },
  })
}
