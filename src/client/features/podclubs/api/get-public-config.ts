import { queryOptions, useQuery } from '@tanstack/react-query'
import { getPublicConfigResponseSchema } from '#contract/config'
import { api } from '#client/lib/api-client'

/** GET /config/: the club's reusable invite code (for the share text) and public URL. */
export function getPublicConfig(signal?: AbortSignal) {
  return api.get('/config/', getPublicConfigResponseSchema, { signal })
}

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) => getPublicConfig(signal),
    staleTime: Infinity,
  })
}

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions())
}
