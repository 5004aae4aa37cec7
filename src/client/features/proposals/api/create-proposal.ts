import { useMutation } from '@tanstack/react-query'
import { createProposalResponseSchema, type CreateProposalBody } from '#contract/proposals'
import { api } from '#client/lib/api-client'

/** POST /propose/ */
export function createProposal(body: CreateProposalBody) {
  return api.post('/propose/', createProposalResponseSchema, { body })
}

export function useCreateProposal() {
  return useMutation({ mutationFn: createProposal })
}
