import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** The poll; with a code, also whether that code can vote in it. */
export function getPoll(pollId: string, voteCode?: string, signal?: AbortSignal) {
  return voteCode
    ? callApi(apiRoutes.getPollWithCode, { params: { pollId, voteCode }, signal })
    : callApi(apiRoutes.getPoll, { params: { pollId }, signal })
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
