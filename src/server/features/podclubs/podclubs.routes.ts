import { and, eq, exists, ne, or } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  getRandomPastPodclubEndpoint,
  listMyUpcomingPodclubsEndpoint,
  listPastPodclubsEndpoint,
  listPodclubsEndpoint,
  listUpcomingPodclubsEndpoint,
} from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { podclubs, registrations } from '../../db/schema/index'
import { route } from '../../lib/route'
import { createFeedCache, isPglite } from './podclubs.feed-cache'
import { readPastPodclubs } from './podclubs.past'
import { readPodclubs } from './podclubs.queries'

export const podclubRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const feed = createFeedCache(deps.db, { singleProcess: isPglite(deps.db) })

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

  route(app, listMyUpcomingPodclubsEndpoint, async (request) => {
    const me = request.member.id
    const holdsSeat = exists(
      deps.db
        .select({ one: registrations.id })
        .from(registrations)
        .where(and(eq(registrations.podclubId, podclubs.id), eq(registrations.userId, me))),
    )
    const where = and(eq(podclubs.status, 'upcoming'), or(eq(podclubs.podmeisterId, me), holdsSeat))
    return { data: await readPodclubs(deps.db, where) }
  })

  route(app, listPastPodclubsEndpoint, async () => ({ data: await readPastPodclubs(deps.db) }))

  route(app, getRandomPastPodclubEndpoint, async () => {
    const [one] = await readPastPodclubs(deps.db, { random: true, limit: 1 })
    return { data: one ?? null }
  })
}
