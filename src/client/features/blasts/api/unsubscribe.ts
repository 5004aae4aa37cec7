import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** The signed link of a blast turns monthly blasts off. Public. */
export function unsubscribe(body: { uid: number; token: string }) {
  return callApi(apiRoutes.unsubscribe, { body })
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe })
}
