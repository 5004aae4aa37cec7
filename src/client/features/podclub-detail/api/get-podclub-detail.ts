import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'
import { PODCLUBS_SCOPE } from '#client/features/podclubs/api/get-upcoming-podclubs'

export function getPodclubDetail(id: string, signal?: AbortSignal) {
  return callApi(apiRoutes.getPodclubDetail, { params: { podclubId: id }, signal })
}

export function podclubDetailQueryOptions(id: string) {
  return queryOptions({
    // Under the podclubs' scope: a seat taken or given back anywhere reloads it with the feed.
    queryKey: [PODCLUBS_SCOPE, 'detail', id] as const,
    queryFn: ({ signal }) => getPodclubDetail(id, signal),
    // Seats and hindsights change under the viewer; a revisit asks again.
    staleTime: 0,
  })
}

export function usePodclubDetail(id: string) {
  return useQuery(podclubDetailQueryOptions(id))
}
