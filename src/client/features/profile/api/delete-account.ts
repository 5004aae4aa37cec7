import { apiRoutes } from 'virtual:api-routes'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useNavigate } from 'react-router'
import type { DeleteAccountBody } from '#contract/profile'
import { callApi } from '#client/lib/api-client'
import { clearUser } from '#client/lib/auth'
import { toast } from '#client/lib/toast'

export function deleteAccount(body: DeleteAccountBody) {
  return callApi(apiRoutes.deleteAccount, { body })
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount })
}

/** What the page does once the server has deleted the account: forget the member, go Home, say so. */
export function useLeaveDeletedAccount() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return useCallback(() => {
    clearUser(queryClient)
    void navigate('/home')
    toast({
      title: 'Account deleted',
      description: 'Your account and personal data are gone. Thank you for being part of podclub.',
    })
  }, [queryClient, navigate])
}
