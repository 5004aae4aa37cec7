import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createProposalEndpoint, getProposalSuggestionsEndpoint } from '#contract/proposals'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { createProposal, getProposalSuggestions } from './proposals.service'

export const proposalLimits = { propose: defineRateLimit('propose', 10, 60 * 60) }

export const proposalRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getProposalSuggestionsEndpoint, async () => ({
    data: await getProposalSuggestions(deps.db),
  }))

  route(
    app,
    createProposalEndpoint,
    async (request, reply) => {
      await app.rateLimit.consume(proposalLimits.propose, limitKeys.account(request.member.id))
      const podclub = await createProposal(deps, request.member, request.body)
      return reply.status(201).send({ data: podclub })
    },
    { now: () => deps.clock.now() },
  )
}
