import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPodclubDetailEndpoint } from '#contract/podclub-detail'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { getPodclubDetail } from './podclub-detail.service'

export const podclubDetailRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  route(app, getPodclubDetailEndpoint, async (request) => ({
    data: await getPodclubDetail(deps.db, request.user, request.params.podclubId),
  }))
}
