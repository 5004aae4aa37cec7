import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreateSuggestionBody } from '#contract/suggestions'
import { callApi } from '#client/lib/api-client'

export function suggestPodcast(body: CreateSuggestionBody) {
  return callApi(apiRoutes.suggestPodcast, { body })
}

export function useSuggestPodcast() {
  return useMutation({ mutationFn: suggestPodcast })
}
