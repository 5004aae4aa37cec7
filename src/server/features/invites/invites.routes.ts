import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sendInviteEndpoint } from '#contract/invites'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { sendInvite } from './invites.service'

export const inviteLimits = {
  /** Invitations by one member, and to one address, per day. */
  byMember: defineRateLimit('invite-member', 20, 24 * 60 * 60),
  toAddress: defineRateLimit('invite-address', 3, 24 * 60 * 60),
}

export const inviteRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, sendInviteEndpoint, async (request) => {
    await app.rateLimit.consume(inviteLimits.byMember, limitKeys.account(request.member.id))
    await app.rateLimit.consume(inviteLimits.toAddress, limitKeys.email(request.body.email))
    await sendInvite(deps, request.member, request.body)
    return { data: { sent: true as const } }
  })
}
