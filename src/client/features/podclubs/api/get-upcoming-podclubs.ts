import { queryOptions, useQuery } from '@tanstack/react-query'
import { listUpcomingPodclubsEndpoint } from '#contract/podclubs'
import { callApi } from '#client/lib/api-client'

export const PODCLUBS_SCOPE = 'podclubs'

/** The same list for everyone, soonest first. */
export function getUpcomingPodclubs(signal?: AbortSignal) {
  return callApi(listUpcomingPodclubsEndpoint, { signal })
}

export function upcomingPodclubsQueryOptions() {
  return queryOptions({
    queryKey: [PODCLUBS_SCOPE, 'upcoming'] as const,
    queryFn: ({ signal }) => getUpcomingPodclubs(signal),
  })
}

export function useUpcomingPodclubs() {
  return useQuery(upcomingPodclubsQueryOptions())
}
