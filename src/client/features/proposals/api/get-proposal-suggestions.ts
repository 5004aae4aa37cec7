import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** Podcast names and keywords the wizard's lists suggest. */
export function getProposalSuggestions(signal?: AbortSignal) {
  return callApi(apiRoutes.getProposalSuggestions, { signal })
}

export function proposalSuggestionsQueryOptions() {
  return queryOptions({
    queryKey: ['proposals', 'suggestions'] as const,
    queryFn: ({ signal }) => getProposalSuggestions(signal),
    staleTime: 5 * 60_000,
  })
}

export function useProposalSuggestions() {
  return useQuery(proposalSuggestionsQueryOptions())
}
