import { useMutation, useQueryClient } from '@tanstack/react-query'
import { inviteCodesResponseSchema } from '#contract/control-panel'
import { api } from '#client/lib/api-client'
import { controlPanelQueryOptions } from './get-control-panel'

/** POST /controlpanel/invite_codes/: new single-use welcome codes. */
export function createInviteCodes(count: number) {
  return api.post('/controlpanel/invite_codes/', inviteCodesResponseSchema, { body: { count } })
}

export function useCreateInviteCodes() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createInviteCodes,
    onSuccess: () => queryClient.invalidateQueries(controlPanelQueryOptions()),
  })
}
