import { useMutation, useQueryClient } from '@tanstack/react-query'
import { IDEMPOTENCY_KEY_HEADER, seatWaitlistStateResponseSchema } from '#contract/podclubs'
import { api } from '#client/lib/api-client'
import { retryUnansweredWrite } from '#client/lib/idempotency-key'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'
import type { ToggleSeatVariables } from './toggle-registration'

/**
 * POST /podclubs/:id/seat_waitlist/ joins a full podclub's seat waitlist, or leaves it when the
 * member is already in line. Not the club's invite waitlist at /waitlist.
 */
export function toggleSeatWaitlist({ podclubId, idempotencyKey }: ToggleSeatVariables) {
  return api.post(`/podclubs/${podclubId}/seat_waitlist/`, seatWaitlistStateResponseSchema, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  })
}

/**
 * Joins or leaves the seat waitlist; the feed reloads so every card shows the new line. A click
 * whose answer got lost is sent again with its key, so it never undoes itself.
 */
export function useToggleSeatWaitlist() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: toggleSeatWaitlist,
    retry: retryUnansweredWrite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
