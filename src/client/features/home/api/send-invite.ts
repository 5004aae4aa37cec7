import { useMutation } from '@tanstack/react-query'
import { sendInviteEndpoint, type CreateInviteBody } from '#contract/invites'
import { callApi } from '#client/lib/api-client'

/** The home card leaves phone and podclubId empty (spec 1 §3). */
export function sendInvite(body: CreateInviteBody) {
  return callApi(sendInviteEndpoint, { body: { phone: '', podclubId: '', ...body } })
}

export function useSendInvite() {
  return useMutation({ mutationFn: sendInvite })
}
