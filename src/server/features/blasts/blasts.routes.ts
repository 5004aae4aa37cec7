import type { FastifyPluginAsync } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { unsubscribeBodySchema, unsubscribeResponseSchema } from '#contract/control-panel'
import { idSchema } from '#contract/common'
import type { AppDeps } from '../../deps'
import { AppError } from '../../lib/app-error'
import { unsubscribeFromBlasts } from './blasts.service'

/** The unsubscribe page's call: the signed link of a blast turns blasts off. */
export const unsubscribeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  app.post(
    '/unsubscribe/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['blasts'],
        body: unsubscribeBodySchema,
        response: { 200: unsubscribeResponseSchema },
      },
    },
    async (request) => {
      await unsubscribeFromBlasts(deps, request.body.uid, request.body.token)
      return { data: { unsubscribed: true as const } }
    },
  )
}

const oneClickParamsSchema = z.object({ uid: idSchema, token: z.string().min(1).max(200) })

/**
 * RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` as a form, with
 * no cookie and no CSRF token; the signed token in the URL is the proof. It lives outside the
 * API's scope for that reason, and changes nothing but the blast subscription.
 */
export const oneClickUnsubscribeRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, body),
  )
  app.post(
    '/unsubscribe/one-click/:uid/:token',
    { config: { access: 'public', secretParams: ['token'] } },
    async (request, reply) => {
      const parsed = oneClickParamsSchema.safeParse(request.params)
      if (!parsed.success) throw new AppError('NOT_FOUND', 'Not found')
      await unsubscribeFromBlasts(deps, parsed.data.uid, parsed.data.token)
      return reply.header('cache-control', 'no-store').send({ data: { unsubscribed: true } })
    },
  )
}
