import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { idSchema } from '#contract/common'
import { unsubscribeEndpoint, unsubscribeOneClickEndpoint } from '#contract/control-panel'
import type { AppDeps } from '../../deps'
import { AppError } from '../../lib/app-error'
import { route } from '../../lib/route'
import { unsubscribeFromBlasts } from './blasts.service'

/** The unsubscribe page's call: the signed link of a blast turns blasts off. */
export const unsubscribeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  route(app, unsubscribeEndpoint, async (request) => {
    await unsubscribeFromBlasts(deps, request.body.uid, request.body.token)
    return { data: { unsubscribed: true as const } }
  })
}

const oneClickParamsSchema = z.object({ uid: idSchema, token: z.string().min(1).max(200) })

/**
 * RFC 8058 one-click unsubscribe, outside the API's scope (see its declaration). It changes
 * nothing but the blast subscription.
 */
export const oneClickUnsubscribeRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, body),
  )
  route(app, unsubscribeOneClickEndpoint, async (request, reply) => {
    const parsed = oneClickParamsSchema.safeParse(request.params)
    if (!parsed.success) throw new AppError('NOT_FOUND', 'Not found')
    await unsubscribeFromBlasts(deps, parsed.data.uid, parsed.data.token)
    return reply.header('cache-control', 'no-store').send({ data: { unsubscribed: true } })
  })
}
