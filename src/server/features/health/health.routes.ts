import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ping } from '../../db/client'
import type { AppDeps } from '../../deps'

const statusSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  /** What the app cannot serve without, when it did not answer: the process is not ready. */
  failing: z.array(z.literal('database')).optional(),
  /** What the app works on without, when it did not answer (Redis: limits count in the database). */
  degraded: z.array(z.literal('redis')).optional(),
})

/** A check that has not answered within this long counts as failed: /readyz never hangs. */
export const READY_TIMEOUT_MS = 2_000

function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work.then(() => undefined), timeout]).finally(() => clearTimeout(timer))
}

/** Liveness and readiness for a process manager or load balancer. */
export const healthRoutes: FastifyPluginAsyncZod<{
  deps: AppDeps
  readyTimeoutMs?: number
}> = async (app, { deps, readyTimeoutMs = READY_TIMEOUT_MS }) => {
  const config = { access: 'public' as const }
  app.get(
    '/healthz',
    { config, schema: { hide: true, response: { 200: statusSchema } } },
    async () => ({ status: 'ok' as const }),
  )
  app.get(
    '/readyz',
    { config, schema: { hide: true, response: { 200: statusSchema, 503: statusSchema } } },
    async (request, reply) => {
      const [database, redis] = await Promise.allSettled([
        withTimeout(ping(deps.db), readyTimeoutMs),
        deps.redis ? withTimeout(deps.redis.ping(), readyTimeoutMs) : Promise.resolve(),
      ])
      const degraded = redis.status === 'rejected' ? { degraded: ['redis' as const] } : {}
      if (database.status === 'rejected') {
        request.log.warn({ failing: ['database'], ...degraded }, 'not ready')
        return reply
          .status(503)
          .send({ status: 'unavailable' as const, failing: ['database' as const], ...degraded })
      }
      if (redis.status === 'rejected') {
        // The rate limits count in the database meanwhile: a load balancer must keep sending
        // traffic, or an optional Redis would take every process out at once.
        request.log.warn(degraded, 'ready without redis')
        return { status: 'degraded' as const, ...degraded }
      }
      return { status: 'ok' as const }
    },
  )
}
