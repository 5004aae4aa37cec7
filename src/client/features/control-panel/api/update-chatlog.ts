import { useMutation } from '@tanstack/react-query'
import { updateChatlogEndpoint } from '#contract/control-panel'
import { callApi } from '#client/lib/api-client'

/** Saves the Zoom chat text, replacing any earlier one. */
export function updateChatlog({ id, chatlog }: { id: number; chatlog: string }) {
  return callApi(updateChatlogEndpoint, { params: { id }, body: { chatlog } })
}

export function useUpdateChatlog() {
  return useMutation({ mutationFn: updateChatlog })
}
