import { useMutation, useQueryClient } from '@tanstack/react-query'
import { triggerResponseSchema, type UpdatePodclubBody } from '#contract/control-panel'
import { api } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

/** PATCH /controlpanel/podclubs/:id/: an operator's change of date, location, link or status. */
export function updatePodclub({ id, body }: { id: number; body: UpdatePodclubBody }) {
  return api.patch(`/controlpanel/podclubs/${id}/`, triggerResponseSchema, { body })
}

export function useUpdatePodclub() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updatePodclub,
    // A new date or status can move the podclub in or out of the upcoming list.
    onSuccess: () => queryClient.invalidateQueries(controlPanelQueryOptions()),
  })
}
