import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createHindsightBodySchema, createHindsightResponseSchema } from '#contract/podclub-detail'
import { podclubIdParamsSchema } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { postHindsight } from './hindsights.service'

export const hindsightLimits = { post: defineRateLimit('hindsight-post', 30, 60 * 60) }

export const hindsightRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/podclub/:podclubId/submit_hindsight/',
    {
      config: { access: 'member' },
      schema: {
        tags: ['hindsights'],
        params: podclubIdParamsSchema,
        body: createHindsightBodySchema,
        response: { 201: createHindsightResponseSchema },
      },
    },
    async (request, reply) => {
      await app.rateLimit.consume(hindsightLimits.post, limitKeys.account(request.member.id))
      const hindsight = await postHindsight(
        deps,
        request.member,
        request.params.podclubId,
        request.body.hindsight,
      )
      return reply.status(201).send({ data: hindsight })
    },
  )
}
