import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPodclubDetailResponseSchema } from '#contract/podclub-detail'
import { podclubIdParamsSchema } from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { getPodclubDetail } from './podclub-detail.service'

export const podclubDetailRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/podclubs/:podclubId/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['podclubs'],
        params: podclubIdParamsSchema,
        response: { 200: getPodclubDetailResponseSchema },
      },
    },
    async (request) => ({
      data: await getPodclubDetail(deps.db, request.user, request.params.podclubId),
    }),
  )
}
