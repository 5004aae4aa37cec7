import { useMutation } from '@tanstack/react-query'
import { createProposalEndpoint, type CreateProposalBody } from '#contract/proposals'
import { callApi } from '#client/lib/api-client'

export function createProposal(body: CreateProposalBody) {
  return callApi(createProposalEndpoint, { body })
}

export function useCreateProposal() {
  return useMutation({ mutationFn: createProposal })
}
