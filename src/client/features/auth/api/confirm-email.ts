import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

/** Confirming twice is harmless, so the page may call it on load. */
export function confirmEmail(uid: string, token: string, signal?: AbortSignal) {
  return callApi(apiRoutes.confirmEmail, {
    body: { uid: Number(uid), token },
    signal,
  })
}

export function useConfirmEmail(uid: string, token: string) {
  return useQuery(
    queryOptions({
      queryKey: ['auth', 'confirm-email', uid, token] as const,
      queryFn: ({ signal }) => confirmEmail(uid, token, signal),
      staleTime: Infinity,
      retry: false,
    }),
  )
}
