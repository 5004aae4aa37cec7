import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

/** New single-use welcome codes. */
export function createInviteCodes(count: number) {
  return callApi(apiRoutes.createInviteCodes, { body: { count } })
}

export function useCreateInviteCodes() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createInviteCodes,
    onSuccess: () => queryClient.invalidateQueries(controlPanelQueryOptions()),
  })
}
