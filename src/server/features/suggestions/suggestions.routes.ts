import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createdSchema,
  createFeedbackBodySchema,
  createSuggestionBodySchema,
} from '#contract/suggestions'
import type { AppDeps } from '../../deps'
import { feedback, suggestions } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'

export const suggestionLimits = {
  /** Suggestions and feedback by one member per hour. */
  suggest: defineRateLimit('suggest-podcast', 20, 60 * 60),
  feedback: defineRateLimit('feedback', 20, 60 * 60),
}

export const suggestionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['suggestions']

  app.post(
    '/suggest_podcast/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Suggest a podcast for a future podclub',
        body: createSuggestionBodySchema,
        response: { 201: createdSchema },
      },
    },
    async (request, reply) => {
      await app.rateLimit.consume(suggestionLimits.suggest, limitKeys.account(request.member.id))
      const { podcastLink, reason } = request.body
      const [row] = await transaction(deps, (tx) =>
        tx
          .insert(suggestions)
          .values({ userId: request.member.id, podcastLink, reason: reason ?? '' })
          .returning({ id: suggestions.id }),
      )
      return reply.status(201).send({ data: { id: row!.id } })
    },
  )

  app.post(
    '/feedback/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Tell the operators what you think of a podcast',
        body: createFeedbackBodySchema,
        response: { 201: createdSchema },
      },
    },
    async (request, reply) => {
      await app.rateLimit.consume(suggestionLimits.feedback, limitKeys.account(request.member.id))
      const { podcastLink, description } = request.body
      const [row] = await transaction(deps, (tx) =>
        tx
          .insert(feedback)
          .values({ userId: request.member.id, podcastLink: podcastLink ?? '', description })
          .returning({ id: feedback.id }),
      )
      return reply.status(201).send({ data: { id: row!.id } })
    },
  )
}
