import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPodclubDetailEndpoint } from '#contract/podclub-detail'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { createPodclubDetailReader } from './podclub-detail.service'

export const podclubDetailRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  const readDetail = createPodclubDetailReader(deps.db)
  route(app, getPodclubDetailEndpoint, async (request) => ({
    data: await readDetail(request.user, request.params.podclubId),
  }))
}
