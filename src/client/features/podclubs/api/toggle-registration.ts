import { useMutation, useQueryClient } from '@tanstack/react-query'
import { registrationStateResponseSchema } from '#contract/podclubs'
import { api } from '#client/lib/api-client'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'

/** POST /register/:id/ takes a seat, or gives it back when the member holds one. */
export function toggleRegistration(podclubId: number) {
  return api.post(`/register/${podclubId}/`, registrationStateResponseSchema)
}

/** Toggles a seat; the feed (and every podclub list) reloads once it is done. */
export function useToggleRegistration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (podclubId: number) => toggleRegistration(podclubId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
