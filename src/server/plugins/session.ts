import cookie from '@fastify/cookie'
import { and, eq, gt, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { sessions, users } from '../db/schema/index'
import type { Db } from '../db/client'
import { AppError, forbidden, notAuthenticated } from '../lib/app-error'
import { hmac, randomToken, safeEqual, sha256 } from '../lib/tokens'

export const SESSION_COOKIE = 'sessionid'
export const CSRF_COOKIE = 'csrftoken'
export const CSRF_HEADER = 'x-csrftoken'
const SESSION_DAYS = 30
const DAY_MS = 86_400_000

export type AuthUser = { id: number; username: string; email: string; isSuperuser: boolean }

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null
    sessionHash: string | null
  }
  interface FastifyReply {
    startSession(userId: number): Promise<void>
    endSession(): Promise<void>
    ensureCsrfCookie(): void
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest) => Promise<void>
    requireSuperuser: (request: FastifyRequest) => Promise<void>
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Cookie sessions stored in the database (so several app processes share them) and CSRF
 * double-submit: the page reads `csrftoken` and echoes it in `X-CSRFToken`. The token is signed
 * with SESSION_SECRET so a cookie planted from elsewhere does not pass.
 */
export const sessionPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { db: Db; secret: string; secureCookies: boolean; now: () => Date },
  ) => {
    const { db, secret, secureCookies, now } = opts
    await app.register(cookie)

    const cookieBase = { path: '/', sameSite: 'lax' as const, secure: secureCookies }
    const newCsrfToken = () => {
      const value = randomToken(24)
      return `${value}.${hmac(secret, value)}`
    }
    const isValidCsrfToken = (token: string) => {
      const [value, signature, extra] = token.split('.')
      return (
        !!value && !!signature && extra === undefined && safeEqual(hmac(secret, value), signature)
      )
    }

    app.decorateRequest('user', null)
    app.decorateRequest('sessionHash', null)

    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/')) return
      if (UNSAFE_METHODS.has(request.method)) {
        const fromCookie = request.cookies[CSRF_COOKIE]
        const fromHeader = request.headers[CSRF_HEADER]
        if (
          typeof fromCookie !== 'string' ||
          typeof fromHeader !== 'string' ||
          !safeEqual(fromCookie, fromHeader) ||
          !isValidCsrfToken(fromCookie)
        ) {
          throw new AppError('CSRF_FAILED', 'CSRF Failed: CSRF token missing or incorrect.', 403)
        }
      }
      const sessionId = request.cookies[SESSION_COOKIE]
      if (!sessionId || sessionId.length > 200) return
      const idHash = sha256(sessionId)
      const [row] = await db
        .select({
          id: users.id,
          username: users.username,
          email: users.email,
          isSuperuser: users.isSuperuser,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now())))
      if (!row) return
      const { expiresAt, ...user } = row
      request.user = user
      request.sessionHash = idHash
      // Rolling expiry: an active member stays logged in, refreshed at most once a day.
      if (expiresAt.getTime() - now().getTime() < (SESSION_DAYS - 1) * DAY_MS) {
        await db
          .update(sessions)
          .set({ expiresAt: new Date(now().getTime() + SESSION_DAYS * DAY_MS) })
          .where(eq(sessions.idHash, idHash))
      }
    })

    app.decorateReply('startSession', async function (this: FastifyReply, userId: number) {
      const request = this.request
      // A fresh id at every login: a session id known before login is worth nothing after it.
      if (request.sessionHash)
        await db.delete(sessions).where(eq(sessions.idHash, request.sessionHash))
      const sessionId = randomToken(32)
      const expiresAt = new Date(now().getTime() + SESSION_DAYS * DAY_MS)
      await db.insert(sessions).values({ idHash: sha256(sessionId), userId, expiresAt })
      this.setCookie(SESSION_COOKIE, sessionId, {
        ...cookieBase,
        httpOnly: true,
        expires: expiresAt,
      })
      // Old sessions of this user that expired are cleaned up here rather than by a timer.
      await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} < ${now()}`))
    })

    app.decorateReply('endSession', async function (this: FastifyReply) {
      const request = this.request
      if (request.sessionHash)
        await db.delete(sessions).where(eq(sessions.idHash, request.sessionHash))
      request.user = null
      request.sessionHash = null
      this.clearCookie(SESSION_COOKIE, { ...cookieBase, httpOnly: true })
    })

    app.decorateReply('ensureCsrfCookie', function (this: FastifyReply) {
      const current = this.request.cookies[CSRF_COOKIE]
      if (current && isValidCsrfToken(current)) return
      this.setCookie(CSRF_COOKIE, newCsrfToken(), {
        ...cookieBase,
        httpOnly: false,
        maxAge: 365 * 86_400,
      })
    })

    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!request.user) throw notAuthenticated()
    })
    app.decorate('requireSuperuser', async (request: FastifyRequest) => {
      if (!request.user) throw notAuthenticated()
      if (!request.user.isSuperuser) throw forbidden()
    })
  },
  { name: 'session' },
)
