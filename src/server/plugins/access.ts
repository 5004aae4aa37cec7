import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { type Access, accessLevels } from '#contract/endpoint'
import { forbidden, notAuthenticated } from '../lib/app-error'
import type { AuthUser } from './session'

export type { Access } from '#contract/endpoint'
const ACCESS_LEVELS: readonly Access[] = accessLevels

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every API route; a route without it stops the app at start. */
    access?: Access
  }
  interface FastifyRequest {
    /**
     * The caller of a `member` or `superuser` route, typed. Reading it where nobody is logged in
     * (a public route) answers 401.
     */
    readonly member: AuthUser
  }
}

function describe(route: RouteOptions) {
  return `Route ${[route.method].flat().join(',')} ${route.url}`
}

/**
 * Every API route comes from a contract declaration (`route(app, endpoint, handler)`), which
 * says who may call it in `config.access`; this plugin refuses to register one that doesn't,
 * and checks the caller before the input is even validated (401 for visitors, 403 for members
 * on operator routes).
 */
export const accessPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const access = (route.config as { access?: unknown } | undefined)?.access
      if (!ACCESS_LEVELS.includes(access as Access)) {
        throw new Error(
          `${describe(route)} must declare who may call it: ` +
            `config: { access: ${ACCESS_LEVELS.map((a) => `'${a}'`).join(' | ')} }`,
        )
      }
      // A hand-written route would be one the page, the mocks and the log know nothing of.
      const endpoint = route.config?.endpoint
      if (!endpoint || endpoint.outsideApi) {
        throw new Error(
          `${describe(route)} must be declared in the contract (defineEndpoint) and ` +
            `registered from its declaration: route(app, endpoint, handler)`,
        )
      }
    })

    app.decorateRequest('member', {
      getter(this: FastifyRequest) {
        if (!this.user) throw notAuthenticated()
        return this.user
      },
    })

    app.addHook('preValidation', async (request) => {
      const access = request.routeOptions.config.access
      if (access === 'public') return
      if (!request.user) throw notAuthenticated()
      if (access === 'superuser' && !request.user.isSuperuser) throw forbidden()
    })
  },
  { name: 'access', dependencies: ['session'] },
)

/**
 * For the app's own routes outside the API's scope (health checks, the one-click unsubscribe,
 * the calendar feed, the API description): they have no session to check a member against, so
 * each must declare `access: 'public'`, and the app refuses to start when one doesn't.
 */
export const outsideApiAccessPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const access = (route.config as { access?: unknown } | undefined)?.access
      if (access !== 'public') {
        throw new Error(
          `${describe(route)} is outside the API's scope, where no session is read: ` +
            `it must declare config: { access: 'public' }`,
        )
      }
      const endpoint = route.config?.endpoint
      if (endpoint && !endpoint.outsideApi) {
        throw new Error(`${describe(route)} is an API endpoint: register it inside /api/v1`)
      }
    })
  },
  { name: 'outside-api-access' },
)
