import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createLoginBodySchema,
  createSignupBodySchema,
  validateInviteCodeBodySchema,
  validateInviteCodeResponseSchema,
  whoamiResponseSchema,
} from '#contract/auth'
import { okSchema } from '#contract/common'
import type { AppDeps } from '../../deps'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import {
  checkInviteCode,
  findLoginAccount,
  signUp,
  toSessionUser,
  verifyLogin,
} from './auth.service'

const MINUTE = 60

/** Attempts allowed per key and window (seconds). */
export const authLimits = {
  /** Failed and successful logins from one address (or IPv6 /64), whatever account. */
  loginAddress: defineRateLimit('login-address', 100, 15 * MINUTE),
  /** Failed logins into one account, from anywhere; a success resets it. */
  loginAccount: defineRateLimit('login-account', 10, 15 * MINUTE),
  signup: defineRateLimit('signup', 10, 60 * MINUTE),
  inviteCode: defineRateLimit('invite-code', 20, 15 * MINUTE),
}

export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['auth']

  app.get(
    '/whoami/',
    { config: { access: 'public' }, schema: { tags, response: { 200: whoamiResponseSchema } } },
    async (request, reply) => {
      reply.ensureCsrfCookie()
      const user = request.user
      return { data: { isAuthenticated: !!user, user: user ? toSessionUser(user) : null } }
    },
  )

  app.post(
    '/login/',
    {
      config: { access: 'public' },
      schema: { tags, body: createLoginBodySchema, response: { 200: whoamiResponseSchema } },
    },
    async (request, reply) => {
      const { username, password } = request.body
      await app.rateLimit.consume(authLimits.loginAddress, limitKeys.address(request))
      const account = await findLoginAccount(deps.db, username)
      const accountKey = limitKeys.account(account?.id ?? username)
      await app.rateLimit.consume(authLimits.loginAccount, accountKey)
      const user = await verifyLogin(account, password)
      await app.rateLimit.reset(authLimits.loginAccount, accountKey)
      await reply.startSession(user.id)
      return { data: { isAuthenticated: true, user: toSessionUser(user) } }
    },
  )

  app.post(
    '/logout/',
    { config: { access: 'public' }, schema: { tags, response: { 200: okSchema } } },
    async (_request, reply) => {
      await reply.endSession()
      return { data: { ok: true as const } }
    },
  )

  app.post(
    '/signup/',
    {
      config: { access: 'public' },
      schema: { tags, body: createSignupBodySchema, response: { 201: whoamiResponseSchema } },
    },
    async (request, reply) => {
      await app.rateLimit.consume(authLimits.signup, limitKeys.address(request))
      const user = await signUp(deps, request.body)
      await reply.startSession(user.id)
      return reply.status(201).send({ data: { isAuthenticated: true, user: toSessionUser(user) } })
    },
  )

  app.post(
    '/validate_invite_code/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        body: validateInviteCodeBodySchema,
        response: { 200: validateInviteCodeResponseSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume(authLimits.inviteCode, limitKeys.address(request))
      await checkInviteCode(deps.db, request.body.code)
      return { data: { valid: true as const } }
    },
  )
}
