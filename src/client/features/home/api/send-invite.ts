import { useMutation } from '@tanstack/react-query'
import { createInviteResponseSchema, type CreateInviteBody } from '#contract/invites'
import { api } from '#client/lib/api-client'

/** POST /invite/: the home card leaves phone and podclubId empty (spec 1 §3). */
export function sendInvite(body: CreateInviteBody) {
  return api.post('/invite/', createInviteResponseSchema, {
    body: { phone: '', podclubId: '', ...body },
  })
}

export function useSendInvite() {
  return useMutation({ mutationFn: sendInvite })
}
