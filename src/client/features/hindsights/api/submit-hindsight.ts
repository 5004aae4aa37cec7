import { useMutation } from '@tanstack/react-query'
import { createHindsightResponseSchema } from '#contract/podclub-detail'
import { api } from '#client/lib/api-client'

/** POST /podclub/:id/submit_hindsight/ */
export function submitHindsight(podclubId: number, hindsight: string) {
  return api.post(`/podclub/${podclubId}/submit_hindsight/`, createHindsightResponseSchema, {
    body: { hindsight },
  })
}

export function useSubmitHindsight(podclubId: number) {
  return useMutation({ mutationFn: (hindsight: string) => submitHindsight(podclubId, hindsight) })
}
