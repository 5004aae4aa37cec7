import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { IDEMPOTENCY_KEY_HEADER } from '#contract/endpoint'
import { callApi } from '#client/lib/api-client'
import { retryUnansweredWrite } from '#client/lib/idempotency-key'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'
import type { ToggleSeatVariables } from './toggle-registration'

/**
 * Joins a full podclub's seat waitlist, or leaves it when the member is already in line. Not the
 * club's invite waitlist at /waitlist.
 */
export function toggleSeatWaitlist({ podclubId, idempotencyKey }: ToggleSeatVariables) {
  return callApi(apiRoutes.toggleSeatWaitlist, {
    params: { podclubId },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  })
}

/**
 * Joins or leaves the seat waitlist; the feed and the podclub's detail reload with the new
 * line. A click whose answer got lost is sent again with its key, so it never undoes itself.
 */
export function useToggleSeatWaitlist() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: toggleSeatWaitlist,
    retry: retryUnansweredWrite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
