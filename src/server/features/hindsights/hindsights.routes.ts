import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { submitHindsightEndpoint } from '#contract/podclub-detail'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { postHindsight } from './hindsights.service'

export const hindsightLimits = { post: defineRateLimit('hindsight-post', 30, 60 * 60) }

export const hindsightRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, submitHindsightEndpoint, async (request, reply) => {
    await app.rateLimit.consume(hindsightLimits.post, limitKeys.account(request.member.id))
    const hindsight = await postHindsight(
      deps,
      request.member,
      request.params.podclubId,
      request.body.hindsight,
    )
    return reply.status(201).send({ data: hindsight })
  })
}
