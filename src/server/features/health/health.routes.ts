import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ping } from '../../db/client'
import type { AppDeps } from '../../deps'

const statusSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** What did not answer, when something did not. */
  failing: z.array(z.enum(['database', 'redis'])).optional(),
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
      const checks = {
        database: ping(deps.db),
        ...(deps.redis ? { redis: deps.redis.ping() } : {}),
      }
      const results = await Promise.allSettled(
        Object.values(checks).map((check) => withTimeout(check, readyTimeoutMs)),
      )
      const failing = Object.keys(checks).filter((_, i) => results[i]!.status === 'rejected') as (
        'database' | 'redis'
      )[]
      if (failing.length === 0) return { status: 'ok' as const }
      request.log.warn({ failing }, 'not ready')
      return reply.status(503).send({ status: 'unavailable' as const, failing })
    },
  )
}
