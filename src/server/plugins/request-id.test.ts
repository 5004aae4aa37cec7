import { Writable } from 'node:stream'
import type { FastifyPluginAsync } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineEndpoint } from '#contract/endpoint'
import { buildApp, type App } from '../app'
import { createLogger } from '../lib/log'
import { route } from '../lib/route'
import { buildTestApp, type TestApp } from '../testing/test-app'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const lines: Array<Record<string, unknown>> = []
const logsEndpoint = defineEndpoint({ method: 'GET', path: '/test/logs/', access: 'public' })
const failsEndpoint = defineEndpoint({ method: 'GET', path: '/test/fails/', access: 'public' })
const extraApiRoutes: FastifyPluginAsync = async (plain) => {
  const api = plain.withTypeProvider<ZodTypeProvider>()
  route(api, logsEndpoint, async (request) => {
    request.log.info('a line a handler writes')
    return { data: { ok: true } }
  })
  route(api, failsEndpoint, async () => {
    throw new Error('something broke')
  })
}

let t: TestApp
let app: App
beforeAll(async () => {
  t = await buildTestApp()
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>)
      done()
    },
  })
  app = await buildApp(t.deps, { loggerInstance: createLogger('info', stream), extraApiRoutes })
  await app.ready()
})
afterAll(async () => {
  await app?.close()
  await t?.close()
})

describe('request ids', () => {
  it('gives every answer a new id when the request brought none', async () => {
    const answers = await Promise.all([
      app.inject({ url: '/api/v1/whoami/' }),
      app.inject({ url: '/api/v1/no-such-thing/' }),
      app.inject({ url: '/healthz' }),
      app.inject({ url: '/api/v1/%E0%A4%A/' }),
    ])
    const ids = answers.map((res) => String(res.headers['x-request-id']))
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("keeps a client's own well-formed id", async () => {
    for (const id of ['abc', 'trace-2026.11_25-xyz', 'a'.repeat(64)]) {
      const res = await app.inject({ url: '/api/v1/whoami/', headers: { 'x-request-id': id } })
      expect(res.headers['x-request-id']).toBe(id)
    }
  })

  it('replaces an id that is not well formed', async () => {
    for (const id of ['', 'a'.repeat(65), 'has space', 'line\\nbreak', '<script>', 'ünïcode']) {
      const res = await app.inject({ url: '/api/v1/whoami/', headers: { 'x-request-id': id } })
      expect(res.headers['x-request-id'], id).toMatch(UUID)
    }
  })

  it('is on every log line of the request', async () => {
    const id = 'trace-log-lines-1'
    lines.length = 0
    const res = await app.inject({ url: '/api/v1/test/logs/', headers: { 'x-request-id': id } })
    expect(res.statusCode).toBe(200)
    const messages = lines.map((l) => l.msg)
    expect(messages).toEqual(
      expect.arrayContaining(['incoming request', 'a line a handler writes', 'request completed']),
    )
    for (const line of lines) expect(line.request_id, String(line.msg)).toBe(id)
  })

  it("is in a 500's body, the same as in the header and the log", async () => {
    lines.length = 0
    const res = await app.inject({ url: '/api/v1/test/fails/' })
    expect(res.statusCode).toBe(500)
    const id = res.headers['x-request-id']
    expect(id).toMatch(UUID)
    expect(res.json()).toEqual({
      detail: 'Internal server error. Please try again later.',
      code: 'INTERNAL',
      request_id: id,
    })
    expect(lines.find((l) => l.msg === 'unhandled error')?.request_id).toBe(id)
  })

  it('is not in the body of a refusal that is not a 500', async () => {
    const res = await app.inject({ url: '/api/v1/no-such-thing/' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ detail: 'Resource not found', code: 'NOT_FOUND' })
  })
})
