import { QueryClient, type DefaultOptions, type Query } from '@tanstack/react-query'
import { isApiError } from './api-client'

/**
 * A 4xx answer will not change on a retry, and retrying a 401 would repeat the session-expired
 * handling; only network failures and 5xx are tried again, up to `times` more times.
 */
export function retryServerFailures(times: number) {
  return (failureCount: number, error: unknown) => {
    if (isApiError(error) && error.status >= 400 && error.status < 500) return false
    return failureCount < times
  }
}

const shouldRetry = retryServerFailures(2)

/**
 * The queries the server's render handed over with the page, while the page hydrates: their data
 * is as of this navigation (start-page.tsx), so a screen that mounts with them asks nothing
 * again, whatever its staleTime (a podclub's page, 0, would otherwise ask for the podclub it was
 * just sent). Forgotten once the page has hydrated: from then on a screen that mounts asks as
 * its staleTime says.
 */
const handedOver = new Set<Query>()

export function markHandedOver(queryClient: QueryClient) {
  for (const query of queryClient.getQueryCache().getAll()) handedOver.add(query)
}

export function forgetHandedOver() {
  handedOver.clear()
}

export const queryConfig = {
  queries: {
    staleTime: 30_000,
    retry: shouldRetry,
    refetchOnWindowFocus: false,
    // True: as staleTime says; false: not on this mount.
    refetchOnMount: (query: Query) => !handedOver.has(query),
  },
  mutations: {
    retry: false,
  },
} satisfies DefaultOptions

export function createQueryClient(overrides: DefaultOptions = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: { ...queryConfig.queries, ...overrides.queries },
      mutations: { ...queryConfig.mutations, ...overrides.mutations },
    },
  })
}
