import { queryOptions, useQuery } from '@tanstack/react-query'
import { getProfileResponseSchema } from '#contract/profile'
import { api } from '#client/lib/api-client'

/** GET /profile/ */
export function getProfile(signal?: AbortSignal) {
  return api.get('/profile/', getProfileResponseSchema, { signal })
}

export function profileQueryOptions() {
  return queryOptions({
    queryKey: ['profile'] as const,
    queryFn: ({ signal }) => getProfile(signal),
    // Seats, proposals and completions elsewhere change it: every visit asks again.
    staleTime: 0,
  })
}

export function useProfile() {
  return useQuery(profileQueryOptions())
}
