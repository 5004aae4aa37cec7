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

  it('names Redis when only Redis fails', async () => {
    const res = await readyWith(
      async () => [],
      async () => {
        throw new Error('Connection is closed.')
      },
    )
    expect(res).toMatchObject({ status: 503, body: { failing: ['redis'] } })
  })
})
