import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createLoginBodySchema,
  createSignupBodySchema,
  validateInviteCodeBodySchema,
  validateInviteCodeResponseSchema,
  whoamiResponseSchema,
} from '#contract/auth'
import { okSchema } from '#contract/common'
import type { AppDeps } from '../../app'
import { checkCredentials, checkInviteCode, signUp, toSessionUser } from './auth.service'

export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { db } = deps
  const tags = ['auth']

  app.get(
    '/whoami/',
    { schema: { tags, response: { 200: whoamiResponseSchema } } },
    async (request, reply) => {
      reply.ensureCsrfCookie()
      const user = request.user
      return { data: { isAuthenticated: !!user, user: user ? toSessionUser(user) : null } }
    },
  )

  app.post(
    '/login/',
    { schema: { tags, body: createLoginBodySchema, response: { 200: whoamiResponseSchema } } },
    async (request, reply) => {
      const { username, password } = request.body
      await app.rateLimit.consume('loginIp', request.ip)
      const attemptKey = `${request.ip}:${username.toLowerCase()}`
      await app.rateLimit.consume('login', attemptKey)
      const user = await checkCredentials(db, username, password)
      await app.rateLimit.reset('login', attemptKey)
      await reply.startSession(user.id)
      return { data: { isAuthenticated: true, user: toSessionUser(user) } }
    },
  )

  app.post(
    '/logout/',
    { schema: { tags, response: { 200: okSchema } } },
    async (_request, reply) => {
      await reply.endSession()
      return { data: { ok: true as const } }
    },
  )

  app.post(
    '/signup/',
    { schema: { tags, body: createSignupBodySchema, response: { 201: whoamiResponseSchema } } },
    async (request, reply) => {
      await app.rateLimit.consume('signup', request.ip)
      const user = await signUp({ db, appUrl: deps.env.APP_URL }, request.body)
      deps.wakeOutbox()
      await reply.startSession(user.id)
      return reply.status(201).send({ data: { isAuthenticated: true, user: toSessionUser(user) } })
    },
  )

  app.post(
    '/validate_invite_code/',
    {
      schema: {
        tags,
        body: validateInviteCodeBodySchema,
        response: { 200: validateInviteCodeResponseSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume('inviteCode', request.ip)
      await checkInviteCode(db, request.body.code)
      return { data: { valid: true as const } }
    },
  )
}
