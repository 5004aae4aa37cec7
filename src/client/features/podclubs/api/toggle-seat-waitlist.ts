import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { IDEMPOTENCY_KEY_HEADER } from '#contract/endpoint'
import { callApi } from '#client/lib/api-client'
import { retryUnansweredWrite } from '#client/lib/idempotency-key'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'
import type { OnSeatAnswer, ToggleSeatVariables } from './toggle-registration'

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
 * line (the mutation is pending until then). A click whose answer got lost is sent again with
 * its key, so it never undoes itself.
 */
export function useToggleSeatWaitlist(
  onAnswer?: OnSeatAnswer<Awaited<ReturnType<typeof toggleSeatWaitlist>>>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: toggleSeatWaitlist,
    retry: retryUnansweredWrite,
    onSuccess: onAnswer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
