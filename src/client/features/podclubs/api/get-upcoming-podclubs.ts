import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'
import { retryServerFailures } from '#client/lib/query-client'

/**
 * Every read of podclubs lives under this key, the feed and each podclub's detail alike: a seat
 * change invalidates the scope, and all of them reload.
 */
export const PODCLUBS_SCOPE = 'podclubs'
export const FEED_RETRY_DELAY_MS = 500

/** The same list for everyone, soonest first. */
export function getUpcomingPodclubs(signal?: AbortSignal) {
  return callApi(apiRoutes.listUpcomingPodclubs, { signal })
}

export function upcomingPodclubsQueryOptions() {
  return queryOptions({
    queryKey: [PODCLUBS_SCOPE, 'upcoming'] as const,
    queryFn: ({ signal }) => getUpcomingPodclubs(signal),
    // The first screen: one quick second try, then the error and its Try Again within about a
    // second, rather than the default back-off's three seconds and more of a spinning record.
    retry: retryServerFailures(1),
    retryDelay: FEED_RETRY_DELAY_MS,
  })
}

export function useUpcomingPodclubs() {
  return useQuery(upcomingPodclubsQueryOptions())
}
