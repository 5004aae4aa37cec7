import { useMutation } from '@tanstack/react-query'
import { suggestPodcastEndpoint, type CreateSuggestionBody } from '#contract/suggestions'
import { callApi } from '#client/lib/api-client'

export function suggestPodcast(body: CreateSuggestionBody) {
  return callApi(suggestPodcastEndpoint, { body })
}

export function useSuggestPodcast() {
  return useMutation({ mutationFn: suggestPodcast })
}
