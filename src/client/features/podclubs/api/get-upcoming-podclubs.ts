import { queryOptions, useQuery } from '@tanstack/react-query'
import { listPodclubsResponseSchema } from '#contract/podclubs'
import { api } from '#client/lib/api-client'

export const PODCLUBS_SCOPE = 'podclubs'

/** GET /all_upcoming_podclubs/: the same list for everyone, soonest first. */
export function getUpcomingPodclubs(signal?: AbortSignal) {
  return api.get('/all_upcoming_podclubs/', listPodclubsResponseSchema, { signal })
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
