import { queryOptions, useQuery } from '@tanstack/react-query'
import { okSchema } from '#contract/common'
import { api } from '#client/lib/api-client'

/** POST /auth/passwordreset/validate_token/: resolves when the link still works. */
export function validateResetToken(token: string, signal?: AbortSignal) {
  return api.post('/auth/passwordreset/validate_token/', okSchema, { body: { token }, signal })
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
