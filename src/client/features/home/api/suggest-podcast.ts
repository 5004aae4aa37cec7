import { useMutation } from '@tanstack/react-query'
import { createdSchema, type CreateSuggestionBody } from '#contract/suggestions'
import { api } from '#client/lib/api-client'

/** POST /suggest_podcast/ */
export function suggestPodcast(body: CreateSuggestionBody) {
  return api.post('/suggest_podcast/', createdSchema, { body })
}

export function useSuggestPodcast() {
  return useMutation({ mutationFn: suggestPodcast })
}
