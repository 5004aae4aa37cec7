import { ne } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  getRandomPastPodclubResponseSchema,
  listPastPodclubsResponseSchema,
  listPodclubsResponseSchema,
} from '#contract/podclubs'
import type { AppDeps } from '../../deps'
import { podclubs } from '../../db/schema/index'
import { createFeedCache } from './podclubs.feed-cache'
import { readPastPodclubs } from './podclubs.past'
import { readMemberUpcomingPodclubs, readPodclubs } from './podclubs.queries'

export const podclubRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const tags = ['podclubs']
  const feed = createFeedCache(deps.db)

  app.get(
    '/all_upcoming_podclubs/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Every upcoming podclub, soonest first: the home feed',
        response: { 200: listPodclubsResponseSchema },
      },
    },
    async (request, reply) => {
      const { body, encoding } = await feed.read(request.headers['accept-encoding'])
      reply.header('content-type', 'application/json; charset=utf-8')
      reply.header('vary', 'accept-encoding')
      if (encoding !== 'identity') reply.header('content-encoding', encoding)
      // Already serialized (and compressed) once per version: Fastify sends a Buffer as it is,
      // without running the response serializer; the schema above still documents the shape.
      return reply.send(body as never)
    },
  )

  app.get(
    '/podclubs/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Upcoming and completed podclubs, latest first',
        response: { 200: listPodclubsResponseSchema },
      },
    },
    async () => ({ data: await readPodclubs(deps.db, ne(podclubs.status, 'cancelled'), 'latest') }),
  )

  app.get(
    '/my_upcoming_podclubs/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: "The caller's upcoming podclubs: seats held and podclubs hosted, soonest first",
        response: { 200: listPodclubsResponseSchema },
      },
    },
    async (request) => ({ data: await readMemberUpcomingPodclubs(deps.db, request.member.id) }),
  )

  app.get(
    '/past_podclubs/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Completed podclubs, latest first',
        response: { 200: listPastPodclubsResponseSchema },
      },
    },
    async () => ({ data: await readPastPodclubs(deps.db) }),
  )

  app.get(
    '/past_podclubs/random/',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'One completed podclub at random, for the archive card (null before the first)',
        response: { 200: getRandomPastPodclubResponseSchema },
      },
    },
    async () => {
      const [one] = await readPastPodclubs(deps.db, { random: true, limit: 1 })
      return { data: one ?? null }
    },
  )
}
