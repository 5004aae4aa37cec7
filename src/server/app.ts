import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyServerOptions } from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { AppDeps } from './deps'
import { authRoutes } from './features/auth/auth.routes'
import { healthRoutes } from './features/health/health.routes'
import { pollRoutes } from './features/polls/polls.routes'
import { accessPlugin } from './plugins/access'
import { errorsPlugin } from './plugins/errors'
import { rateLimitPlugin } from './plugins/rate-limit'
import { sessionPlugin } from './plugins/session'

export type { AppDeps } from './deps'

/**
 * The page loads only its own files and talks only to its own API. Inline styles stay allowed:
 * React and Radix position popovers with style attributes.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export const clientDistDir = fileURLToPath(new URL('../../dist/client', import.meta.url))

export type BuildAppOptions = {
  /** The process's pino logger; without one the app logs nothing (tests). */
  loggerInstance?: FastifyServerOptions['loggerInstance']
  /** Serve the built page from dist/client (main.ts turns this on; API tests leave it off). */
  serveClient?: boolean
}

/** A hop count believes that many proxies nearest to us; a list believes those addresses. */
function trustProxyOption(setting: AppDeps['env']['TRUST_PROXY']) {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting
  return setting
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    trustProxy: trustProxyOption(deps.env.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    // Graceful shutdown: close() stops accepting, lets requests in flight finish.
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  await app.register(errorsPlugin)
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
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger())

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'same-origin')
    reply.header('x-frame-options', 'DENY')
    const isPage = String(reply.getHeader('content-type') ?? '').startsWith('text/html')
    if (isPage && !request.url.startsWith('/api/'))
      reply.header('content-security-policy', PAGE_CSP)
  })

  await app.register(healthRoutes, { deps })
  // The API's scope: sessions, CSRF, access checks and rate limits hang on the routes matched
  // here, whatever spelling of the URL reached them, and on nothing else.
  await app.register(
    async (api) => {
      // JSON only: a cross-site form (text/plain, urlencoded, multipart) is refused with 415.
      api.removeContentTypeParser('text/plain')
      await api.register(sessionPlugin, {
        db: deps.db,
        secret: deps.sessionSecret,
        appUrl: deps.env.APP_URL,
        now: () => deps.clock.now(),
      })
      await api.register(accessPlugin)
      await api.register(rateLimitPlugin, {
        db: deps.db,
        redis: deps.redis,
        enabled: deps.rateLimits ?? true,
      })
      api.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store')
      })
      await api.register(authRoutes, { deps })
      await api.register(pollRoutes, { deps })
    },
    { prefix: '/api/v1' },
  )

  const hasClient = options.serveClient && existsSync(`${clientDistDir}/index.html`)
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDistDir,
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        )
      },
    })
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api')
    if (hasClient && isPage) {
      // Every page route is drawn by the client router, including its own not-found page.
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
    return reply.status(404).send({ detail: 'Resource not found', code: 'NOT_FOUND' })
  })

  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
