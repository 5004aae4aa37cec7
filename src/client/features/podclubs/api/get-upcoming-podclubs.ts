import { queryOptions, useQuery } from '@tanstack/react-query'
import { listUpcomingPodclubsEndpoint } from '#contract/podclubs'
import { callApi } from '#client/lib/api-client'

/**
 * Every read of podclubs lives under this key, the feed and each podclub's detail alike: a seat
 * change invalidates the scope, and all of them reload.
 */
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
