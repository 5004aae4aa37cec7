import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** Saves the Zoom chat text, replacing any earlier one. */
export function updateChatlog({ id, chatlog }: { id: number; chatlog: string }) {
  return callApi(apiRoutes.updateChatlog, { params: { id }, body: { chatlog } })
}

export function useUpdateChatlog() {
  return useMutation({ mutationFn: updateChatlog })
}
