import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** One completed podclub, or null before the first. */
export function getRandomPastPodclub(signal?: AbortSignal) {
  return callApi(apiRoutes.getRandomPastPodclub, { signal })
}

export function randomPastPodclubQueryOptions() {
  return queryOptions({
    queryKey: ['past-podclubs', 'random'] as const,
    queryFn: ({ signal }) => getRandomPastPodclub(signal),
    // A new pick each time the card mounts or shuffles, not a cached one.
    staleTime: 0,
    gcTime: 0,
  })
}

export function useRandomPastPodclub() {
  return useQuery(randomPastPodclubQueryOptions())
}
