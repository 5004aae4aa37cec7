import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'

import { callApi } from '#client/lib/api-client'
import { profileQueryOptions } from './get-profile'

/** Makes a new secret calendar feed URL; the old one answers 404. */
export function resetCalendarLink() {
  return callApi(apiRoutes.resetCalendarLink)
}

/** Resets the link and puts the new one into the profile on screen at once. */
export function useResetCalendarLink() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resetCalendarLink,
    onSuccess: ({ calendar_url }) => {
      queryClient.setQueryData(profileQueryOptions().queryKey, (profile) =>
        profile ? { ...profile, calendar_url } : profile,
      )
    },
  })
}
