import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

export function getProfile(signal?: AbortSignal) {
  return callApi(apiRoutes.getProfile, { signal })
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
