import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPodclubDetailEndpoint, type PodclubDetail } from '#contract/podclub-detail'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import type { PageRead } from '../../plugins/page-cache'
import { createPodclubDetailReader, isSharedDetail } from './podclub-detail.service'

/**
 * A page kept for every viewer may read a podclub's detail when the answer is its shared part
 * alone, made of cached reads.
 */
export const detailPageRead: PageRead = {
  endpoint: getPodclubDetailEndpoint,
  shared: (answer) => isSharedDetail((answer as { data: PodclubDetail }).data),
}

export const podclubDetailRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  const readDetail = createPodclubDetailReader(deps.db)
  route(app, getPodclubDetailEndpoint, async (request) => ({
    data: await readDetail(request.user, request.params.podclubId),
  }))
}
