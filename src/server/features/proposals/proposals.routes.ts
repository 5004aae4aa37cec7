import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createProposalBodySchema,
  createProposalResponseSchema,
  getProposalSuggestionsResponseSchema,
} from '#contract/proposals'
import type { AppDeps } from '../../deps'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { createProposal, getProposalSuggestions } from './proposals.service'

export const proposalLimits = { propose: defineRateLimit('propose', 10, 60 * 60) }

export const proposalRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['proposals']

  app.get(
    '/podcasts/',
    {
      config: { access: 'member' },
      schema: { tags, response: { 200: getProposalSuggestionsResponseSchema } },
    },
    async () => ({ data: await getProposalSuggestions(deps.db) }),
  )

  app.post(
    '/propose/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        // "One to seven months ahead" is judged by the app's clock at each request.
        body: createProposalBodySchema(() => deps.clock.now()),
        response: { 201: createProposalResponseSchema },
      },
    },
    async (request, reply) => {
      await app.rateLimit.consume(proposalLimits.propose, limitKeys.account(request.member.id))
      const podclub = await createProposal(deps, request.member, request.body)
      return reply.status(201).send({ data: podclub })
    },
  )
}
