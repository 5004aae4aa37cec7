import { queryOptions, useQuery } from '@tanstack/react-query'
import { getSplashResponseSchema } from '#contract/podclubs'
import { api } from '#client/lib/api-client'

/** GET /splash/: the stats card's numbers. */
export function getSplashStats(signal?: AbortSignal) {
  return api.get('/splash/', getSplashResponseSchema, { signal })
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
