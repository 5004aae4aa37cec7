import { queryOptions, useQuery } from '@tanstack/react-query'
import { getPodclubDetailEndpoint } from '#contract/podclub-detail'
import { callApi } from '#client/lib/api-client'
import { PODCLUBS_SCOPE } from '#client/features/podclubs/api/get-upcoming-podclubs'

export function getPodclubDetail(id: string, signal?: AbortSignal) {
  return callApi(getPodclubDetailEndpoint, { params: { podclubId: id }, signal })
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
