import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** The club code, invite link and contact address the public screens show. */
export function getPublicConfig(signal?: AbortSignal) {
  return callApi(apiRoutes.getPublicConfig, { signal })
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
