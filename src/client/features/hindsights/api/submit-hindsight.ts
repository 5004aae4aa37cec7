import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'

export function submitHindsight(podclubId: number, hindsight: string) {
  return callApi(apiRoutes.submitHindsight, { params: { podclubId }, body: { hindsight } })
}

export function useSubmitHindsight(podclubId: number) {
  return useMutation({ mutationFn: (hindsight: string) => submitHindsight(podclubId, hindsight) })
}
