import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { deleteAccountEndpoint, getMyDataEndpoint, getProfileEndpoint } from '#contract/profile'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { deleteAccount } from '../accounts/account-deletion.service'
import { createProfileReader, getMyData } from './profile.service'

/**
 * Password checks of a logged-in member, counted per account like a login from a known browser
 * (docs/decisions/012): someone holding a member's session cannot try passwords faster.
 */
export const profileLimits = {
  deleteAccount: defineRateLimit('delete-account', 10, 15 * 60),
}

export const profileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const readProfile = createProfileReader(deps)
  route(app, getProfileEndpoint, async (request) => ({
    data: await readProfile(request.member.id),
  }))

  route(app, getMyDataEndpoint, async (request) => ({
    data: await getMyData(deps, request.member.id),
  }))

  route(app, deleteAccountEndpoint, async (request, reply) => {
    await app.rateLimit.consume(profileLimits.deleteAccount, limitKeys.account(request.member.id))
    await deleteAccount(deps, request.member, request.body.password)
    // The sessions are gone with the account; this one's cookie goes too, with a visitor's token.
    await reply.endSession()
    return { data: { ok: true as const } }
  })
}
