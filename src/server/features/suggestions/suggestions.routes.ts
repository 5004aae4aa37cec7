import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sendFeedbackEndpoint, suggestPodcastEndpoint } from '#contract/suggestions'
import type { AppDeps } from '../../deps'
import { feedback, suggestions } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'

export const suggestionLimits = {
  /** Suggestions and feedback by one member per hour. */
  suggest: defineRateLimit('suggest-podcast', 20, 60 * 60),
  feedback: defineRateLimit('feedback', 20, 60 * 60),
}

export const suggestionRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, suggestPodcastEndpoint, async (request, reply) => {
    await app.rateLimit.consume(suggestionLimits.suggest, limitKeys.account(request.member.id))
    const { podcastLink, reason } = request.body
    const [row] = await transaction(deps, (tx) =>
      tx
        .insert(suggestions)
        .values({ userId: request.member.id, podcastLink, reason: reason ?? '' })
        .returning({ id: suggestions.id }),
    )
    return reply.status(201).send({ data: { id: row!.id } })
  })

  route(app, sendFeedbackEndpoint, async (request, reply) => {
    await app.rateLimit.consume(suggestionLimits.feedback, limitKeys.account(request.member.id))
    const { podcastLink, description } = request.body
    const [row] = await transaction(deps, (tx) =>
      tx
        .insert(feedback)
        .values({ userId: request.member.id, podcastLink: podcastLink ?? '', description })
        .returning({ id: feedback.id }),
    )
    return reply.status(201).send({ data: { id: row!.id } })
  })
}
