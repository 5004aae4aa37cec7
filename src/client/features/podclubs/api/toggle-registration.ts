import { apiRoutes } from 'virtual:api-routes'
import { type UseMutationOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { IDEMPOTENCY_KEY_HEADER } from '#contract/endpoint'
import { callApi } from '#client/lib/api-client'
import { retryUnansweredWrite } from '#client/lib/idempotency-key'
import { PODCLUBS_SCOPE } from './get-upcoming-podclubs'

/** One click on a seat button: the podclub, and the key that makes its retries safe. */
export type ToggleSeatVariables = { podclubId: number; idempotencyKey: string }

/**
 * What a seat button does with the server's answer (a toast), as soon as it comes: before the
 * feed has read itself again, so that a message the live stream brings meanwhile (a seat from
 * the line) is not replaced by this older one.
 */
export type OnSeatAnswer<State> = UseMutationOptions<State, Error, ToggleSeatVariables>['onSuccess']

/** Takes a seat, or gives it back when the member holds one. */
export function toggleRegistration({ podclubId, idempotencyKey }: ToggleSeatVariables) {
  return callApi(apiRoutes.toggleRegistration, {
    params: { podclubId },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  })
}

/**
 * Toggles a seat; the feed and the podclub's detail reload once it is done (the mutation is
 * pending until then). A click whose answer got lost is sent again with its key, so it never
 * gives back the seat it just took.
 */
export function useToggleRegistration(
  onAnswer?: OnSeatAnswer<Awaited<ReturnType<typeof toggleRegistration>>>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: toggleRegistration,
    retry: retryUnansweredWrite,
    onSuccess: onAnswer,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] }),
  })
}
