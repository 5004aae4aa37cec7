import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** The stats card's numbers. */
export function getSplashStats(signal?: AbortSignal) {
  return callApi(apiRoutes.getSplashStats, { signal })
}

export function splashStatsQueryOptions() {
  return queryOptions({
    queryKey: ['splash', 'stats'] as const,
    queryFn: ({ signal }) => getSplashStats(signal),
    // Spec 1 §7: a failed stats call is silent; the card shows '---'.
    retry: false,
  })
}

export function useSplashStats() {
  return useQuery(splashStatsQueryOptions())
}
