import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ping, type Db } from '../../db/client'

const statusSchema = z.object({ status: z.enum(['ok', 'unavailable']) })

/** Liveness and readiness for a process manager or load balancer. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: statusSchema } } }, async () => ({
    status: 'ok' as const,
  }))
  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: statusSchema, 503: statusSchema } } },
    async (request, reply) => {
      try {
        await ping(db)
        return { status: 'ok' as const }
      } catch (err) {
        request.log.warn({ err }, 'database did not answer')
        return reply.status(503).send({ status: 'unavailable' as const })
      }
    },
  )
}
