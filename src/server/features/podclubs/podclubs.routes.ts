import { ne } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  getRandomPastPodclubEndpoint,
  listMyUpcomingPodclubsEndpoint,
  listPastPodclubsEndpoint,
  listPodclubsEndpoint,
  listUpcomingPodclubsEndpoint,
} from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { podclubs } from '../../db/schema/index'
import { route } from '../../lib/route'
import type { PageRead } from '../../plugins/page-cache'
import type { FeedCache } from './podclubs.feed-cache'
import { readPastPodclubs } from './podclubs.past'
import { readMemberUpcomingPodclubs, readPodclubs } from './podclubs.queries'

/** A page kept for every viewer may read the feed: the same for everyone while its parts stand. */
export const feedPageRead: PageRead = { endpoint: listUpcomingPodclubsEndpoint }

export const podclubRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; feed: FeedCache }> = async (
  app,
  { deps, feed },
) => {
  route(app, listUpcomingPodclubsEndpoint, async (request, reply) => {
    const { body, encoding } = await feed.read(request.headers['accept-encoding'])
    reply.header('content-type', 'application/json; charset=utf-8')
    reply.header('vary', 'accept-encoding')
    if (encoding !== 'identity') reply.header('content-encoding', encoding)
    // Already serialized (and compressed) once per version: Fastify sends a Buffer as it is,
    // without running the response serializer; the declaration still documents the shape.
    return reply.send(body as never)
  })

  route(app, listPodclubsEndpoint, async () => ({
    data: await readPodclubs(deps.db, ne(podclubs.status, 'cancelled'), 'latest'),
  }))

  route(app, listMyUpcomingPodclubsEndpoint, async (request) => ({
    data: await readMemberUpcomingPodclubs(deps.db, request.member.id),
  }))

  route(app, listPastPodclubsEndpoint, async () => ({ data: await readPastPodclubs(deps.db) }))

  route(app, getRandomPastPodclubEndpoint, async () => {
    const [one] = await readPastPodclubs(deps.db, { random: true, limit: 1 })
    return { data: one ?? null }
  })
}
