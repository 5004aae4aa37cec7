import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { IDEMPOTENCY_KEY_HEADER } from '#contract/endpoint'
import { callApi } from '#client/lib/api-client'
import { retryUnansweredWrite } from '#client/lib/idempotency-key'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'

/** One click on a seat button: the podclub, and the key that makes its retries safe. */
export type ToggleSeatVariables = { podclubId: number; idempotencyKey: string }

/** Takes a seat, or gives it back when the member holds one. */
export function toggleRegistration({ podclubId, idempotencyKey }: ToggleSeatVariables) {
  return callApi(apiRoutes.toggleRegistration, {
    params: { podclubId },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  })
}

/**
 * Toggles a seat; the feed and the podclub's detail reload once it is done. A click whose
 * answer got lost is sent again with its key, so it never gives back the seat it just took.
 */
export function useToggleRegistration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: toggleRegistration,
    retry: retryUnansweredWrite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
