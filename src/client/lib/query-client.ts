import { QueryClient, type DefaultOptions } from '@tanstack/react-query'
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

export const queryConfig = {
  queries: {
    staleTime: 30_000,
    retry: shouldRetry,
    refetchOnWindowFocus: false,
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
