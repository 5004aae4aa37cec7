import { queryOptions, useQuery } from '@tanstack/react-query'
import { getPodclubDetailResponseSchema } from '#contract/podclub-detail'
import { api } from '#client/lib/api-client'

/** GET /podclubs/:id/ */
export function getPodclubDetail(id: string, signal?: AbortSignal) {
  return api.get(`/podclubs/${encodeURIComponent(id)}/`, getPodclubDetailResponseSchema, { signal })
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
