import { useMutation, useQueryClient } from '@tanstack/react-query'
import { seatWaitlistStateResponseSchema } from '#contract/podclubs'
import { api } from '#client/lib/api-client'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'

/**
 * POST /podclubs/:id/seat_waitlist/ joins a full podclub's seat waitlist, or leaves it when the
 * member is already in line. Not the club's invite waitlist at /waitlist.
 */
export function toggleSeatWaitlist(podclubId: number) {
  return api.post(`/podclubs/${podclubId}/seat_waitlist/`, seatWaitlistStateResponseSchema)
}

/** Joins or leaves the seat waitlist; the feed reloads so every card shows the new line. */
export function useToggleSeatWaitlist() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (podclubId: number) => toggleSeatWaitlist(podclubId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
