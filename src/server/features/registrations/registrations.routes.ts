import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { toggleRegistrationEndpoint, toggleSeatWaitlistEndpoint } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { toggleSeat } from './registrations.service'
import { toggleSeatWaitlist } from './seat-waitlist.service'

export const registrationLimits = {
  /** Seat toggles by one member: generous for people, a wall for scripts. */
  toggle: defineRateLimit('seat-toggle', 60, 60),
  /** Seat waitlist toggles by one member, likewise. */
  waitlist: defineRateLimit('seat-waitlist-toggle', 60, 60),
}

export const registrationRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  route(app, toggleRegistrationEndpoint, async (request) => {
    await app.rateLimit.consume(registrationLimits.toggle, limitKeys.account(request.member.id))
    const key = request.headers['idempotency-key']
    return { data: await toggleSeat(deps, request.member, request.params.podclubId, key) }
  })

  route(app, toggleSeatWaitlistEndpoint, async (request) => {
    await app.rateLimit.consume(registrationLimits.waitlist, limitKeys.account(request.member.id))
    const key = request.headers['idempotency-key']
    return {
      data: await toggleSeatWaitlist(deps, request.member, request.params.podclubId, key),
    }
  })
}
