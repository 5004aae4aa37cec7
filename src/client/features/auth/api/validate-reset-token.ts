import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** Resolves when the link still works. */
export function validateResetToken(token: string, signal?: AbortSignal) {
  return callApi(apiRoutes.validateResetToken, { body: { token }, signal })
}

export function resetTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['password-reset', 'token', token] as const,
    queryFn: ({ signal }) => validateResetToken(token, signal),
    // A token is checked once per visit; the confirm call checks it again anyway.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  })
}

export function useResetToken(token: string) {
  return useQuery(resetTokenQueryOptions(token))
}
