import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'

import { callApi, isApiError } from '#client/lib/api-client'
import { clearUser } from '#client/lib/auth'
import { toast } from '#client/lib/toast'

export function logout() {
  return callApi(apiRoutes.logout)
}

/** No answer, or the server failed: its session may still be alive, so one more try. */
function retryUnanswered(failureCount: number, error: Error) {
  return failureCount < 1 && isApiError(error) && (error.isNetworkError || error.status >= 500)
}

/**
 * Logs out once the server has ended the session, then goes Home. The session cookie is the
 * server's to clear (the page cannot read or delete it), so a logout that did not reach the
 * server is tried once more and then reported, and the page stays logged in rather than showing
 * a visitor whose session lives on (docs/decisions/018).
 */
export function useLogout() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const loggedOut = () => {
    clearUser(queryClient)
    void navigate('/home')
  }
  return useMutation({
    mutationFn: logout,
    retry: retryUnanswered,
    onSuccess: loggedOut,
    onError: (error) => {
      // A 401 means there was no session left to end: that is logged out too.
      if (isApiError(error) && error.status === 401) return loggedOut()
      toast({
        title: 'Failed to Logout',
        description: `${error.message} You are still logged in.`,
        variant: 'destructive',
      })
    },
  })
}
