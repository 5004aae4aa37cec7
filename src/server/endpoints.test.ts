import type { FastifyPluginAsync } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_PREFIX, type Endpoint } from '#contract/endpoint'
import { endpoints } from '#contract/endpoints'
import { buildApp } from './app'
import { buildTestApp, type TestApp } from './testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const urlOf = (endpoint: Endpoint) => `${endpoint.outsideApi ? '' : API_PREFIX}${endpoint.path}`

describe('the routes the app registers', () => {
  it.each(Object.entries(endpoints))('include %s, as declared', (_name, endpoint) => {
    expect(t.app.hasRoute({ method: endpoint.method, url: urlOf(endpoint) })).toBe(true)
  })

  it('come from declarations only: a route written by hand stops the app at start', async () => {
    const byHand: FastifyPluginAsync = async (api) => {
      api.get('/written-twice/', { config: { access: 'public' } }, async () => ({ data: 1 }))
    }
    await expect(buildApp(t.deps, { extraApiRoutes: byHand })).rejects.toThrow(
      /GET \/api\/v1\/written-twice\/ must be declared in the contract/,
    )
  })
})
