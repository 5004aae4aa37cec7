import { useMutation } from '@tanstack/react-query'
import { triggerResponseSchema } from '#contract/control-panel'
import { api } from '#client/lib/api-client'

/** PUT /controlpanel/podclubs/:id/chatlog/: saves the Zoom chat text, replacing any earlier one. */
export function updateChatlog({ id, chatlog }: { id: number; chatlog: string }) {
  return api.put(`/controlpanel/podclubs/${id}/chatlog/`, triggerResponseSchema, {
    body: { chatlog },
  })
}

export function useUpdateChatlog() {
  return useMutation({ mutationFn: updateChatlog })
}
