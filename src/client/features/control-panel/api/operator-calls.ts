import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreateOperatorPodclubBody } from '#contract/control-panel'
import { registrationStateResponseSchema } from '#contract/podclubs'
import { createPollResponseSchema, type CreatePollBody } from '#contract/polls'
import { createProposalResponseSchema } from '#contract/proposals'
import { api } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

/** POST /register_admin/:podclubId/:username/: quick registration of a member. */
export function quickRegister({ podclubId, username }: { podclubId: number; username: string }) {
  return api.post(
    `/register_admin/${podclubId}/${encodeURIComponent(username)}/`,
    registrationStateResponseSchema,
  )
}

/** POST /controlpanel/podclubs/: an upcoming podclub with any future date and podmeister. */
export function createOperatorPodclub(body: CreateOperatorPodclubBody) {
  return api.post('/controlpanel/podclubs/', createProposalResponseSchema, { body })
}

/** POST /controlpanel/polls/: a poll with 2 to 10 options. */
export function createPoll(body: CreatePollBody) {
  return api.post('/controlpanel/polls/', createPollResponseSchema, { body })
}

function usePanelMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries(controlPanelQueryOptions()),
  })
}

export const useQuickRegister = () => usePanelMutation(quickRegister)
export const useCreateOperatorPodclub = () => usePanelMutation(createOperatorPodclub)
export const useCreatePoll = () => usePanelMutation(createPoll)
