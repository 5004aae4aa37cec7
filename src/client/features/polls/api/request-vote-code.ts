import { useMutation } from '@tanstack/react-query'
import { createPollInviteResponseSchema, type CreatePollInviteBody } from '#contract/polls'
import { api } from '#client/lib/api-client'

/** POST /polls/:id/invite/: mails a vote code to the address. */
export function requestVoteCode(pollId: string, body: CreatePollInviteBody) {
  return api.post(`/polls/${encodeURIComponent(pollId)}/invite/`, createPollInviteResponseSchema, {
    body,
  })
}

export function useRequestVoteCode(pollId: string) {
  return useMutation({ mutationFn: (body: CreatePollInviteBody) => requestVoteCode(pollId, body) })
}
