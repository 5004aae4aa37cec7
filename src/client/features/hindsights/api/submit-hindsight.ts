import { useMutation } from '@tanstack/react-query'
import { submitHindsightEndpoint } from '#contract/podclub-detail'
import { callApi } from '#client/lib/api-client'

export function submitHindsight(podclubId: number, hindsight: string) {
  return callApi(submitHindsightEndpoint, { params: { podclubId }, body: { hindsight } })
}

export function useSubmitHindsight(podclubId: number) {
  return useMutation({ mutationFn: (hindsight: string) => submitHindsight(podclubId, hindsight) })
}
