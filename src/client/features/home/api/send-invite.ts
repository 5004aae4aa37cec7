import { apiRoutes } from 'virtual:api-routes'
import { useMutation } from '@tanstack/react-query'
import type { CreateInviteBody } from '#contract/invites'
import { callApi } from '#client/lib/api-client'

/** The home card leaves phone and podclubId empty (spec 1 §3). */
export function sendInvite(body: CreateInviteBody) {
  return callApi(apiRoutes.sendInvite, { body: { phone: '', podclubId: '', ...body } })
}

export function useSendInvite() {
  return useMutation({ mutationFn: sendInvite })
}
