import { queryOptions, useQuery } from '@tanstack/react-query'
import { getProposalSuggestionsResponseSchema } from '#contract/proposals'
import { api } from '#client/lib/api-client'

/** GET /podcasts/: podcast names and keywords the wizard's lists suggest. */
export function getProposalSuggestions(signal?: AbortSignal) {
  return api.get('/podcasts/', getProposalSuggestionsResponseSchema, { signal })
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
