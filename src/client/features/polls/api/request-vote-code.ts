import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreatePollInviteBody } from '#contract/polls'
import { callApi } from '#client/lib/api-client'

/** Mails a vote code to the address. */
export function requestVoteCode(pollId: string, body: CreatePollInviteBody) {
  return callApi(apiRoutes.requestVoteCode, { params: { pollId }, body })
}

export function useRequestVoteCode(pollId: string) {
  return useMutation({ mutationFn: (body: CreatePollInviteBody) => requestVoteCode(pollId, body) })
}
