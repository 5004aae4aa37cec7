import { queryOptions, useQuery } from '@tanstack/react-query'
import { getPodclubDetailEndpoint } from '#contract/podclub-detail'
import { callApi } from '#client/lib/api-client'

export function getPodclubDetail(id: string, signal?: AbortSignal) {
  return callApi(getPodclubDetailEndpoint, { params: { podclubId: id }, signal })
}

export function podclubDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['podclub-detail', id] as const,
    queryFn: ({ signal }) => getPodclubDetail(id, signal),
    // Seats and hindsights change under the viewer; a revisit asks again.
    staleTime: 0,
  })
}

export function usePodclubDetail(id: string) {
  return useQuery(podclubDetailQueryOptions(id))
}
