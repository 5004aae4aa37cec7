import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import compress, { type FastifyCompressOptions } from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, {
  type FastifyError,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { INTERNAL_ERROR_MESSAGE } from '#contract/common'
import { API_PREFIX } from '#contract/endpoint'
import type { AppDeps } from './deps'
import { accountsRoutes } from './features/accounts/accounts.routes'
import { authRoutes } from './features/auth/auth.routes'
import { oneClickUnsubscribeRoutes, unsubscribeRoutes } from './features/blasts/blasts.routes'
import { controlPanelRoutes } from './features/control-panel/control-panel.routes'
import { configRoutes } from './features/config/config.routes'
import { healthRoutes } from './features/health/health.routes'
import { inviteRoutes } from './features/invites/invites.routes'
import { podclubRoutes } from './features/podclubs/podclubs.routes'
import { registrationRoutes } from './features/registrations/registrations.routes'
import { splashRoutes } from './features/splash/splash.routes'
import { suggestionRoutes } from './features/suggestions/suggestions.routes'
import { hindsightRoutes } from './features/hindsights/hindsights.routes'
import { podclubDetailRoutes } from './features/podclub-detail/podclub-detail.routes'
import { profileRoutes } from './features/profile/profile.routes'
import { proposalRoutes } from './features/proposals/proposals.routes'
import { pollRoutes } from './features/polls/polls.routes'
import { calendarFeedRoutes, calendarRoutes } from './features/calendar/calendar.routes'
import { accessPlugin, outsideApiAccessPlugin } from './plugins/access'
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
  // Podcast pictures are links to the podcasts' own hosts.
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * Swagger UI at /api/docs, and nothing more: its own script files (no inline script, no eval),
 * the <style> element it injects, its icons as data: SVG images, and fetch for the spec and
 * "Try it out". Checked in Chromium: the page draws, runs a call and opens Authorize with no
 * violation; without 'unsafe-inline' or data: it logs violations. See docs/decisions/005.
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

/** Anything that is not a page (JSON, scripts, images) runs nothing when opened on its own. */
const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

/** Features the club never uses, refused for the page and anything it might embed. */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), browsing-topics=()'

/** Clients that accept brotli get it (smaller), others gzip; answers under 1 KiB go as they are. */
const API_COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  // Request bodies stay plain JSON: a compressed upload is never needed, and refusing it keeps
  // the body limit about the bytes that arrive.
  globalDecompression: false,
}

export const clientDistDir = fileURLToPath(new URL('../../dist/client', import.meta.url))

export type BuildAppOptions = {
  /** The process's pino logger; without one the app logs nothing (tests). */
  loggerInstance?: FastifyServerOptions['loggerInstance']
  /** Serve the built page from dist/client (main.ts turns this on; API tests leave it off). */
  serveClient?: boolean
  /** Where the built page is; dist/client unless a test brings its own. */
  clientDir?: string
  /** Tests only: routes added inside the API scope, after the features, to see what it adds. */
  extraApiRoutes?: FastifyPluginAsync
}

/**
 * The headers every answer carries, including the ones Fastify writes before any route or hook
 * runs (a URL it cannot decode). The CSP follows what is sent: an HTML answer is the page unless
 * its handler set a policy of its own (the API docs), anything else runs nothing.
 */
function setSecurityHeaders(reply: FastifyReply, { hsts }: { hsts: boolean }) {
  reply.header('x-content-type-options', 'nosniff')
  reply.header('referrer-policy', 'same-origin')
  reply.header('x-frame-options', 'DENY')
  reply.header('permissions-policy', PERMISSIONS_POLICY)
  reply.header('cross-origin-opener-policy', 'same-origin')
  // Only over https: a browser that saw it on plain http would ignore it anyway, and a local
  // http://localhost run must not teach the browser to refuse http for that host.
  if (hsts) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains')
  // A 304 carries no body and no content type; the browser merges its headers into the copy it
  // kept, so a policy here would replace the page's own. It keeps the one it stored.
  if (!reply.hasHeader('content-security-policy') && reply.statusCode !== 304) {
    const isHtml = String(reply.getHeader('content-type') ?? '').startsWith('text/html')
    reply.header('content-security-policy', isHtml ? PAGE_CSP : NON_PAGE_CSP)
  }
}

/** Paths the API answers; everything else is the page's. */
function isApiPath(url: string) {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

const BAD_REQUEST_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Bad request</title>' +
  '<p>This address is not valid. <a href="/">Go to podclub</a></p></html>'

/** A hop count believes that many proxies nearest to us; a list believes those addresses. */
function trustProxyOption(setting: AppDeps['env']['TRUST_PROXY']) {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting
  return setting
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const hsts = new URL(deps.env.APP_URL).protocol === 'https:'
  const clientDir = options.clientDir ?? clientDistDir
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    trustProxy: trustProxyOption(deps.env.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    // Graceful shutdown: close() stops accepting, lets requests in flight finish.
    forceCloseConnections: 'idle',
    // A URL Fastify cannot decode (/api/v1/%E0%A4%A/) is refused before any route or hook runs,
    // so its answer gets the contract's error shape and the security headers here.
    frameworkErrors: (error, request, reply) =>
      sendFrameworkError(error, request as FastifyRequest, reply as FastifyReply),
  }).withTypeProvider<ZodTypeProvider>()

  function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error({ err: error }, 'request refused by the router')
    reply.status(status).header('cache-control', 'no-store')
    if (isApiPath(request.url) || status >= 500) {
      reply.type('application/json; charset=utf-8')
      setSecurityHeaders(reply, { hsts })
      return reply.send(
        status >= 500
          ? { detail: INTERNAL_ERROR_MESSAGE, code: 'INTERNAL' }
          : { detail: 'Bad request.', code: 'BAD_REQUEST' },
      )
    }
    reply.type('text/html; charset=utf-8')
    setSecurityHeaders(reply, { hsts })
    return reply.send(BAD_REQUEST_PAGE)
  }

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  await app.register(errorsPlugin)
  // For the API and for the app's routes outside it (the calendar feed): one set of counters.
  await app.register(rateLimitPlugin, {
    db: deps.db,
    redis: deps.redis,
    enabled: deps.rateLimits ?? true,
  })
  app.addHook('onSend', async (_request, reply) => {
    setSecurityHeaders(reply, { hsts })
  })
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
  // The app's own routes outside the API: each declares that anyone may call it, checked here
  // at start like the API's (Swagger UI's and the page's files are not ours to declare).
  await app.register(async (outside) => {
    await outside.register(outsideApiAccessPlugin)
    await outside.register(async (spec) => {
      await spec.register(compress, API_COMPRESSION)
      spec.get(
        '/api/openapi.json',
        { config: { access: 'public' }, schema: { hide: true } },
        async () => app.swagger(),
      )
    })
    await outside.register(healthRoutes, { deps })
    await outside.register(oneClickUnsubscribeRoutes, { deps })
    await outside.register(calendarFeedRoutes, { deps })
  })
  // The API's scope: sessions, CSRF, access checks and rate limits hang on the routes matched
  // here, whatever spelling of the URL reached them, and on nothing else.
  await app.register(
    async (api) => {
      // JSON only: a cross-site form (text/plain, urlencoded, multipart) is refused with 415.
      api.removeContentTypeParser('text/plain')
      // Compresses the API's JSON only: the page's files are compressed once, at build time.
      await api.register(compress, API_COMPRESSION)
      await api.register(sessionPlugin, {
        db: deps.db,
        secret: deps.sessionSecret,
        appUrl: deps.env.APP_URL,
        now: () => deps.clock.now(),
      })
      await api.register(accessPlugin)
      api.addHook('onSend', async (_request, reply) => {
        reply.header('cache-control', 'no-store')
      })
      await api.register(authRoutes, { deps })
      await api.register(accountsRoutes, { deps })
      await api.register(controlPanelRoutes, { deps })
      await api.register(unsubscribeRoutes, { deps })
      await api.register(podclubRoutes, { deps })
      await api.register(registrationRoutes, { deps })
      await api.register(splashRoutes, { deps })
      await api.register(suggestionRoutes, { deps })
      await api.register(inviteRoutes, { deps })
      await api.register(configRoutes, { deps })
      await api.register(podclubDetailRoutes, { deps })
      await api.register(hindsightRoutes, { deps })
      await api.register(profileRoutes, { deps })
      await api.register(proposalRoutes, { deps })
      await api.register(pollRoutes, { deps })
      await api.register(calendarRoutes, { deps })
      if (options.extraApiRoutes) await api.register(options.extraApiRoutes)
    },
    { prefix: API_PREFIX },
  )

  const hasClient = options.serveClient && existsSync(path.join(clientDir, 'index.html'))
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes name.br and name.gz beside each text file (vite.config.ts): sent as
      // they are to a browser that accepts them, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        )
      },
    })
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url)
    if (hasClient && isPage) {
      // Every page route is drawn by the client router, including its own not-found page.
      // sendFile picks index.html.br or .gz too when the browser accepts them.
      return reply.header('cache-control', 'no-cache').sendFile('index.html')
    }
    return reply.status(404).send({ detail: 'Resource not found', code: 'NOT_FOUND' })
  })

  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
