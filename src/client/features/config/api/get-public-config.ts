import { queryOptions, useQuery } from '@tanstack/react-query'
import { getPublicConfigResponseSchema } from '#contract/config'
import { api } from '#client/lib/api-client'

/** GET /config/: the club code, invite link and contact address the public screens show. */
export function getPublicConfig(signal?: AbortSignal) {
  return api.get('/config/', getPublicConfigResponseSchema, { signal })
}

export function publicConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) => getPublicConfig(signal),
    // Settings change only with a restart.
    staleTime: Infinity,
  })
}

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions())
}
