import { queryOptions, useQuery } from '@tanstack/react-query'
import { getPollResponseSchema } from '#contract/polls'
import { api } from '#client/lib/api-client'

const pollPath = (pollId: string, voteCode?: string) =>
  voteCode
    ? `/polls/${encodeURIComponent(pollId)}/${encodeURIComponent(voteCode)}/`
    : `/polls/${encodeURIComponent(pollId)}/`

/** GET /polls/:id/ or, with a code, /polls/:id/:code/ (which also says whether it can vote). */
export function getPoll(pollId: string, voteCode?: string, signal?: AbortSignal) {
  return api.get(pollPath(pollId, voteCode), getPollResponseSchema, { signal })
}

export const pollQueryKey = (pollId: string) => ['polls', pollId] as const

export function pollQueryOptions(pollId: string, voteCode?: string) {
  return queryOptions({
    queryKey: [...pollQueryKey(pollId), voteCode ?? null] as const,
    queryFn: ({ signal }) => getPoll(pollId, voteCode, signal),
  })
}

export function usePoll(pollId: string, voteCode?: string) {
  return useQuery(pollQueryOptions(pollId, voteCode))
}
