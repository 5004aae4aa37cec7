import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreatePollVoteBody } from '#contract/polls'
import { callApi } from '#client/lib/api-client'
import { pollQueryKey, pollQueryOptions } from './get-poll'

/** Answers the poll as it stands after the vote. */
export function castVote(pollId: string, body: CreatePollVoteBody) {
  return callApi(apiRoutes.castVote, { params: { pollId }, body })
}

export function useCastVote(pollId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreatePollVoteBody) => castVote(pollId, body),
    onSuccess: async (poll, body) => {
      queryClient.setQueryData(pollQueryOptions(pollId, body.voteCode).queryKey, poll)
      // Spec 2 §4: after a vote the poll is reloaded.
      await queryClient.invalidateQueries({ queryKey: pollQueryKey(pollId) })
    },
  })
}
