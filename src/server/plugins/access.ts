import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { forbidden, notAuthenticated } from '../lib/app-error'
import type { AuthUser } from './session'

/** Who may call a route: anyone, a logged-in member, or a super user (an operator). */
export type Access = 'public' | 'member' | 'superuser'
const ACCESS_LEVELS: readonly Access[] = ['public', 'member', 'superuser']

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

/**
 * Every API route says who may call it in `config.access`; this plugin refuses to register one
 * that doesn't, and checks the caller before the input is even validated (401 for visitors, 403
 * for members on operator routes).
 */
export const accessPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const access = (route.config as { access?: unknown } | undefined)?.access
      if (!ACCESS_LEVELS.includes(access as Access)) {
        const methods = [route.method].flat().join(',')
        throw new Error(
          `Route ${methods} ${route.url} must declare who may call it: ` +
            `config: { access: ${ACCESS_LEVELS.map((a) => `'${a}'`).join(' | ')} }`,
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
        const methods = [route.method].flat().join(',')
        throw new Error(
          `Route ${methods} ${route.url} is outside the API's scope, where no session is read: ` +
            `it must declare config: { access: 'public' }`,
        )
      }
    })
  },
  { name: 'outside-api-access' },
)
