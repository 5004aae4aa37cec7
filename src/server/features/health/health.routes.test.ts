import Fastify from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import type { AppDeps } from '../../deps'
import { healthRoutes } from './health.routes'

/** Readiness over stand-ins that answer, fail or never answer. */
async function readyWith(database: () => Promise<unknown>, redis?: () => Promise<unknown>) {
  const app = Fastify()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  const deps = {
    db: { execute: database },
    ...(redis ? { redis: { ping: redis } } : {}),
  } as unknown as AppDeps
  await app.register(healthRoutes, { deps, readyTimeoutMs: 200 })
  const started = performance.now()
  const res = await app.inject({ method: 'GET', url: '/readyz' })
  const ms = performance.now() - started
  await app.close()
  return { status: res.statusCode, body: res.json(), ms }
}

const never = () => new Promise(() => {})

describe('/readyz', () => {
  it('answers ok when the database and Redis answer', async () => {
    const res = await readyWith(
      async () => [],
      async () => 'PONG',
    )
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } })
  })

  it('answers 503 in time when the database hangs, instead of hanging with it', async () => {
    const res = await readyWith(never)
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ status: 'unavailable', failing: ['database'] })
    expect(res.ms).toBeLessThan(2_000)
  })

  it('stays ready and reports Redis as degraded when only Redis fails or hangs', async () => {
    for (const redis of [
      async () => {
        throw new Error('Connection is closed.')
      },
      never,
    ]) {
      const res = await readyWith(async () => [], redis)
      expect(res).toMatchObject({ status: 200, body: { status: 'degraded', degraded: ['redis'] } })
    }
  })

  it('answers 503 when the database fails, naming Redis too when it is also away', async () => {
    const res = await readyWith(
      async () => {
        throw new Error('connect ECONNREFUSED')
      },
      async () => {
        throw new Error('Connection is closed.')
      },
    )
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ status: 'unavailable', failing: ['database'], degraded: ['redis'] })
  })
})
