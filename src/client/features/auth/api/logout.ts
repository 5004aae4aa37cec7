import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { logoutEndpoint } from '#contract/auth'
import { callApi } from '#client/lib/api-client'
import { clearUser } from '#client/lib/auth'
import { toast } from '#client/lib/toast'

export function logout() {
  return callApi(logoutEndpoint)
}

/** Spec 2 §4: logout always clears the local user and goes Home, even when the call fails. */
export function useLogout() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useMutation({
    mutationFn: logout,
    onError: (error) => {
      toast({ title: 'Failed to Logout', description: error.message, variant: 'destructive' })
    },
    onSettled: () => {
      clearUser(queryClient)
      void navigate('/home')
    },
  })
}
