import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { outsideApiAccessPlugin } from './access'
import { apiCompressionPlugin } from './api-compression'

/**
 * Swagger UI at /api/docs, and nothing more: its own script files (no inline script, no eval),
 * the <style> element it injects, its icons as data: SVG images, and fetch for the spec and
 * "Try it out". Checked in Chromium: the page draws, runs a call and opens Authorize with no
 * violation; without 'unsafe-inline' or data: it logs violations. See docs/decisions/007.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * The API described from the same zod schemas the routes validate with: `/api/openapi.json`
 * and Swagger UI at `/api/docs`. Registered before the routes, which it collects as they are
 * added.
 */
export const apiDocsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'podclub API',
          description: 'The calls the podclub page makes. Successful answers are `{ data }`.',
          version: '1',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
            csrf: { type: 'apiKey', in: 'header', name: 'X-CSRFToken' },
          },
        },
      },
      transform: jsonSchemaTransform,
    })
    // Swagger UI puts its own policy (staticCSP) on what it serves, in place of the app's.
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: DOCS_CSP })
    // The document is one of the app's routes outside the API: it declares that anyone may
    // read it, checked at start like the others (Swagger UI's own files are not ours to declare).
    await app.register(async (spec) => {
      await spec.register(outsideApiAccessPlugin)
      await spec.register(apiCompressionPlugin)
      spec.get(
        '/api/openapi.json',
        { config: { access: 'public' }, schema: { hide: true } },
        async () => app.swagger(),
      )
    })
  },
  { name: 'api-docs' },
)
