import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  castVoteEndpoint,
  createPollEndpoint,
  getPollEndpoint,
  getPollWithCodeEndpoint,
  requestVoteCodeEndpoint,
} from '#contract/polls'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { castVote, createPoll, getPoll, requestVoteCode } from './polls.service'

const MINUTE = 60

/** Attempts allowed per key and window (seconds). */
export const pollLimits = {
  /** Vote-code mails asked for from one client, whatever the address. */
  inviteAddress: defineRateLimit('poll-invite-address', 20, 60 * MINUTE),
  /** Vote-code mails to one address, from anywhere: nobody's inbox gets flooded. */
  inviteEmail: defineRateLimit('poll-invite-email', 5, 60 * MINUTE),
  /** Votes (and code guesses) from one client. */
  cast: defineRateLimit('poll-cast', 30, 15 * MINUTE),
  /**
   * Vote-code checks from one client: every poll page opened from a mail makes one, so the wall
   * is far above what people do, and only there for scripts trying codes.
   */
  codeCheck: defineRateLimit('poll-code-check', 120, 15 * MINUTE),
}

export const pollRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getPollEndpoint, async (request) => ({
    data: await getPoll(deps, request.params.pollId),
  }))

  route(app, getPollWithCodeEndpoint, async (request) => {
    await app.rateLimit.consume(pollLimits.codeCheck, limitKeys.address(request))
    return { data: await getPoll(deps, request.params.pollId, request.params.voteCode) }
  })

  route(app, requestVoteCodeEndpoint, async (request) => {
    await app.rateLimit.consume(pollLimits.inviteAddress, limitKeys.address(request))
    await app.rateLimit.consume(pollLimits.inviteEmail, limitKeys.email(request.body.email))
    await requestVoteCode(deps, request.params.pollId, request.body.email)
    return { data: { ok: true as const } }
  })

  route(app, castVoteEndpoint, async (request) => {
    await app.rateLimit.consume(pollLimits.cast, limitKeys.address(request))
    return { data: await castVote(deps, request.params.pollId, request.body) }
  })

  route(app, createPollEndpoint, async (request, reply) => {
    const poll = await createPoll(deps, request.member, request.body)
    return reply.status(201).send({ data: poll })
  })
}
