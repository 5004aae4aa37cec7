import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreateProposalBody } from '#contract/proposals'
import { callApi } from '#client/lib/api-client'

export function createProposal(body: CreateProposalBody) {
  return callApi(apiRoutes.createProposal, { body })
}

export function useCreateProposal() {
  return useMutation({ mutationFn: createProposal })
}
