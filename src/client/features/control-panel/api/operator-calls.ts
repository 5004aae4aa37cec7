import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { CreateOperatorPodclubBody } from '#contract/control-panel'
import type { CreatePollBody } from '#contract/polls'
import { callApi } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

/** Quick registration of a member. */
export function quickRegister(params: { podclubId: number; username: string }) {
  return callApi(apiRoutes.quickRegister, { params })
}

/** An upcoming podclub with any future date and podmeister. */
export function createOperatorPodclub(body: CreateOperatorPodclubBody) {
  return callApi(apiRoutes.createOperatorPodclub, { body })
}

/** A poll with 2 to 10 options. */
export function createPoll(body: CreatePollBody) {
  return callApi(apiRoutes.createPoll, { body })
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
