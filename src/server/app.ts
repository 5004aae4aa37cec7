import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyPluginAsync, type FastifyServerOptions } from 'fastify'
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { API_PREFIX } from '#contract/endpoint'
import type { AppDeps } from './deps'
import { accountsRoutes } from './features/accounts/accounts.routes'
import { authRoutes } from './features/auth/auth.routes'
import { oneClickUnsubscribeRoutes, unsubscribeRoutes } from './features/blasts/blasts.routes'
import { controlPanelRoutes } from './features/control-panel/control-panel.routes'
import { configPageRead, configRoutes } from './features/config/config.routes'
import { healthRoutes } from './features/health/health.routes'
import { inviteRoutes } from './features/invites/invites.routes'
import { liveRoutes } from './features/live/live.routes'
import { createFeedCache } from './features/podclubs/podclubs.feed-cache'
import { feedPageRead, podclubRoutes } from './features/podclubs/podclubs.routes'
import { registrationRoutes } from './features/registrations/registrations.routes'
import { splashRoutes } from './features/splash/splash.routes'
import { suggestionRoutes } from './features/suggestions/suggestions.routes'
import { hindsightRoutes } from './features/hindsights/hindsights.routes'
import {
  detailPageRead,
  podclubDetailRoutes,
} from './features/podclub-detail/podclub-detail.routes'
import { profileRoutes } from './features/profile/profile.routes'
import { proposalRoutes } from './features/proposals/proposals.routes'
import { pollRoutes } from './features/polls/polls.routes'
import { calendarFeedRoutes, calendarRoutes } from './features/calendar/calendar.routes'
import { accessPlugin, outsideApiAccessPlugin } from './plugins/access'
import { apiCompressionPlugin } from './plugins/api-compression'
import { apiDocsPlugin } from './plugins/api-docs'
import { errorsPlugin, frameworkErrorHandler } from './plugins/errors'
import { metricsPlugin, metricsRoutes } from './plugins/metrics'
import { rateLimitPlugin } from './plugins/rate-limit'
import { requestIdPlugin, requestIdServerOptions } from './plugins/request-id'
import { securityHeadersPlugin } from './plugins/security-headers'
import type { PageCacheOptions } from './plugins/page-cache'
import { createVisitorSession, sessionPlugin } from './plugins/session'
import { staticPagePlugin } from './plugins/static-page'

export type { AppDeps } from './deps'

export const clientDistDir = fileURLToPath(new URL('../../dist/client', import.meta.url))
/** The build of the page's first screen for the server (plugins/page-render.ts). */
export const renderModuleFile = fileURLToPath(
  new URL('../../dist/render/entry-server.js', import.meta.url),
)

export type BuildAppOptions = {
  /** The process's pino logger; without one the app logs nothing (tests). */
  loggerInstance?: FastifyServerOptions['loggerInstance']
  /** Serve the built page from dist/client (main.ts turns this on; API tests leave it off). */
  serveClient?: boolean
  /** Where the built page is; dist/client unless a test brings its own. */
  clientDir?: string
  /** The module that renders a page's first screen (`renderModuleFile`, main.ts); without one, or
   * when the build has none, every page address gets the shell. */
  renderModule?: string
  /** Tests only: routes added inside the API scope, after the features, to see what it adds. */
  extraApiRoutes?: FastifyPluginAsync
  /** Tests only: the bounds of the kept pages (plugins/page-cache.ts), or false to keep none. */
  pageCache?: PageCacheOptions | false
}

/** A hop count believes that many proxies nearest to us; a list believes those addresses. */
function trustProxyOption(setting: AppDeps['env']['TRUST_PROXY']) {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting
  return setting
}

/**
 * The app: which plugins and routes, in which scope. What each does is decided in the plugin
 * (src/server/plugins/README.md) or the feature.
 */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}) {
  const hsts = new URL(deps.env.APP_URL).protocol === 'https:'
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    ...requestIdServerOptions,
    trustProxy: trustProxyOption(deps.env.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    // Graceful shutdown: close() stops accepting, lets requests in flight finish.
    forceCloseConnections: 'idle',
    // A URL Fastify cannot decode is refused before any route or hook runs.
    frameworkErrors: frameworkErrorHandler({ hsts }),
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  await app.register(requestIdPlugin)
  await app.register(errorsPlugin)
  await app.register(securityHeadersPlugin, { hsts })
  await app.register(metricsPlugin, { deps })
  // For the API and for the app's routes outside it (the calendar feed): one set of counters.
  await app.register(rateLimitPlugin, {
    db: deps.db,
    redis: deps.redis,
    enabled: deps.rateLimits ?? true,
  })
  await app.register(apiDocsPlugin)
  // The app's own routes outside the API: each declares that anyone may call it, checked here
  // at start like the API's (Swagger UI's and the page's files are not ours to declare).
  await app.register(async (outside) => {
    await outside.register(outsideApiAccessPlugin)
    await outside.register(healthRoutes, { deps })
    await outside.register(oneClickUnsubscribeRoutes, { deps })
    await outside.register(calendarFeedRoutes, { deps })
    await outside.register(metricsRoutes, { deps })
  })
  // The API's scope: sessions, CSRF, access checks and rate limits hang on the routes matched
  // here, whatever spelling of the URL reached them, and on nothing else.
  await app.register(
    async (api) => {
      // JSON only: a cross-site form (text/plain, urlencoded, multipart) is refused with 415.
      api.removeContentTypeParser('text/plain')
      await api.register(apiCompressionPlugin)
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
      // The feed's parts, kept by the versions: read by the feed and by the live stream's events.
      const feed = createFeedCache(deps.db)
      await api.register(podclubRoutes, { deps, feed })
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
      await api.register(liveRoutes, { deps, feed })
      if (options.extraApiRoutes) await api.register(options.extraApiRoutes)
    },
    { prefix: API_PREFIX },
  )

  await app.register(staticPagePlugin, {
    serve: options.serveClient ?? false,
    clientDir: options.clientDir ?? clientDistDir,
    renderModule: options.renderModule,
    // A page is kept for every viewer the API describes the same way while what it read stands:
    // the API reads it may make, each with the versions its answer stands on.
    sharing:
      options.pageCache === false
        ? undefined
        : {
            db: deps.db,
            reads: [configPageRead, feedPageRead, detailPageRead],
            visitor: createVisitorSession({
              secret: deps.sessionSecret,
              appUrl: deps.env.APP_URL,
            }),
            limits: options.pageCache,
          },
  })

  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
