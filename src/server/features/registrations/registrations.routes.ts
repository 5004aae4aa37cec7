import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  idempotentWriteHeadersSchema,
  podclubIdParamsSchema,
  registrationStateResponseSchema,
  seatWaitlistStateResponseSchema,
} from '#contract/podclubs'
import type { AppDeps } from '../../deps'
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
  app.post(
    '/register/:podclubId/',
    {
      config: { access: 'member' },
      schema: {
        tags: ['registrations'],
        summary: 'Take a seat, or give it back when already holding one',
        params: podclubIdParamsSchema,
        headers: idempotentWriteHeadersSchema,
        response: { 200: registrationStateResponseSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume(registrationLimits.toggle, limitKeys.account(request.member.id))
      const key = request.headers['idempotency-key']
      return { data: await toggleSeat(deps, request.member, request.params.podclubId, key) }
    },
  )

  app.post(
    '/podclubs/:podclubId/seat_waitlist/',
    {
      config: { access: 'member' },
      schema: {
        tags: ['registrations'],
        summary: "Join a full podclub's seat waitlist, or leave it",
        params: podclubIdParamsSchema,
        headers: idempotentWriteHeadersSchema,
        response: { 200: seatWaitlistStateResponseSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume(registrationLimits.waitlist, limitKeys.account(request.member.id))
      const key = request.headers['idempotency-key']
      return {
        data: await toggleSeatWaitlist(deps, request.member, request.params.podclubId, key),
      }
    },
  )
}
