import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { UpdatePodclubBody } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

/** An operator's change of date, location, link or status. */
export function updatePodclub({ id, body }: { id: number; body: UpdatePodclubBody }) {
  return callApi(apiRoutes.updatePodclub, { params: { id }, body })
}

export function useUpdatePodclub() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updatePodclub,
    // A new date or status can move the podclub in or out of the upcoming list.
    onSuccess: () => queryClient.invalidateQueries(controlPanelQueryOptions()),
  })
}
