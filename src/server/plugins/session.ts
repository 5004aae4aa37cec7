import { randomFillSync } from 'node:crypto'
import cookie from '@fastify/cookie'
import { and, eq, gt, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { sessions, users } from '../db/schema/index'
import type { Db } from '../db/client'
import { cachedByVersion, type CachedRead } from '../db/cache-versions'
import { AppError } from '../lib/app-error'
import { hmac, randomToken, safeEqual, sha256 } from '../lib/tokens'

export const SESSION_COOKIE = 'sessionid'
/** Under https the session cookie carries the `__Host-` prefix: host-only, Secure, path /. */
export const SECURE_SESSION_COOKIE = '__Host-sessionid'
export const CSRF_COOKIE = 'csrftoken'
export const CSRF_HEADER = 'x-csrftoken'
const SESSION_DAYS = 30
const DAY_MS = 86_400_000

export type AuthUser = { id: number; username: string; email: string; isSuperuser: boolean }

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null
    sessionHash: string | null
    /** When the session ends unless it is used again (it rolls forward once a day). */
    sessionExpiresAt: Date | null
  }
  interface FastifyReply {
    startSession(userId: number): Promise<void>
    endSession(): Promise<void>
    ensureCsrfCookie(): void
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const csrfFailed = (why: string) => new AppError('CSRF_FAILED', `CSRF Failed: ${why}`)

export type SessionOptions = {
  db: Db
  secret: string
  /** APP_URL: its scheme decides Secure cookies, its origin is the one writes may come from. */
  appUrl: string
  now: () => Date
}

/** The session cookie's name for the app at `appUrl`: `__Host-` prefixed under https. */
function sessionCookieOf(appUrl: string) {
  return appUrl.startsWith('https:') ? SECURE_SESSION_COOKIE : SESSION_COOKIE
}

/** What a CSRF token is bound to: the session cookie sent (its hash), or '' for none. */
function bindingOf(sessionId: string | undefined) {
  return sessionId && sessionId.length <= 200 ? sha256(sessionId) : ''
}

/**
 * Random bytes for CSRF tokens, drawn from the system 6 KB at a time, each used once: every
 * visitor's page without a CSRF cookie gets a new token, and a draw of its own per token cost a
 * tenth of a kept page's time.
 */
const randomPool = Buffer.alloc(24 * 256)
let poolUsed = randomPool.length
function pooledRandomToken(bytes: number) {
  if (poolUsed + bytes > randomPool.length) {
    randomFillSync(randomPool)
    poolUsed = 0
  }
  const token = randomPool.toString('base64url', poolUsed, poolUsed + bytes)
  poolUsed += bytes
  return token
}

/**
 * CSRF tokens signed with `secret`: a random value signed together with the session it was
 * issued for (its binding), so neither a cookie planted from elsewhere nor a token of another
 * session passes.
 */
function csrfTokensOf(secret: string) {
  const sign = (binding: string, value: string) => hmac(secret, `csrf:${binding}:${value}`)
  return {
    issue(binding: string) {
      const value = pooledRandomToken(24)
      return `${value}.${sign(binding, value)}`
    },
    isValid(token: string, binding: string) {
      const [value, signature, extra] = token.split('.')
      return (
        !!value && !!signature && extra === undefined && safeEqual(sign(binding, value), signature)
      )
    },
  }
}

/** The CSRF cookie: read by the page (not HttpOnly), kept a year. */
function csrfCookieOptions(secure: boolean) {
  return { path: '/', sameSite: 'lax' as const, secure, httpOnly: false, maxAge: 365 * 86_400 }
}

/**
 * What the session gives a request that carries no session cookie, for an answer made outside
 * the API's scope from what the API would say (a page kept for every visitor,
 * plugins/page-render.ts): the cookies whoami would set, that is the CSRF cookie unless the
 * request holds a valid one. Null for a request with a session cookie: only the API's own
 * session hook can tell whose it is (and extend it).
 */
export function createVisitorSession({ secret, appUrl }: { secret: string; appUrl: string }) {
  const sessionCookie = sessionCookieOf(appUrl)
  const secure = appUrl.startsWith('https:')
  const csrf = csrfTokensOf(secret)
  return {
    cookiesFor(cookieHeader: string | undefined): string[] | null {
      const sent = cookieHeader ? cookie.parse(cookieHeader) : {}
      if (sent[sessionCookie]) return null
      const current = sent[CSRF_COOKIE]
      if (current && csrf.isValid(current, bindingOf(undefined))) return []
      const token = csrf.issue(bindingOf(undefined))
      return [cookie.serialize(CSRF_COOKIE, token, csrfCookieOptions(secure))]
    },
  }
}

export type VisitorSession = ReturnType<typeof createVisitorSession>

/**
 * Cookie sessions stored in the database (so several app processes share them) and CSRF
 * double-submit: the page reads `csrftoken` and echoes it in `X-CSRFToken`. The token is a random
 * value signed with SESSION_SECRET together with the session it was issued for (none for a
 * visitor), so neither a cookie planted from elsewhere nor a token of another session passes.
 * Logging in and out hand out a new one.
 *
 * Registered inside the API's scope: its hooks run for every route Fastify matched there, however
 * the URL was spelled, and for nothing else.
 */
export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: SessionOptions) => {
    const { db, secret, now } = opts
    const appOrigin = new URL(opts.appUrl).origin
    const secureCookies = opts.appUrl.startsWith('https:')
    const sessionCookie = sessionCookieOf(opts.appUrl)
    await app.register(cookie)

    const cookieBase = { path: '/', sameSite: 'lax' as const, secure: secureCookies }
    const csrf = csrfTokensOf(secret)
    const setCsrfCookie = (reply: FastifyReply, binding: string) => {
      reply.setCookie(CSRF_COOKIE, csrf.issue(binding), csrfCookieOptions(secureCookies))
    }
    const setSessionCookie = (reply: FastifyReply, sessionId: string, expiresAt: Date) => {
      reply.setCookie(sessionCookie, sessionId, {
        ...cookieBase,
        httpOnly: true,
        expires: expiresAt,
      })
    }

    app.decorateRequest('user', null)
    app.decorateRequest('sessionHash', null)
    app.decorateRequest('sessionExpiresAt', null)

    /** A write must come from our own page: same origin by the browser's word, and the token. */
    const checkWriteOrigin = (request: FastifyRequest) => {
      const site = request.headers['sec-fetch-site']
      if (site !== undefined && site !== 'same-origin' && site !== 'none')
        throw csrfFailed('cross-site request.')
      const origin = request.headers.origin
      if (origin !== undefined && origin !== appOrigin && origin !== requestOrigin(request))
        throw csrfFailed('Origin checking failed.')
      const fromCookie = request.cookies[CSRF_COOKIE]
      const fromHeader = request.headers[CSRF_HEADER]
      if (
        typeof fromCookie !== 'string' ||
        typeof fromHeader !== 'string' ||
        !safeEqual(fromCookie, fromHeader) ||
        !csrf.isValid(fromCookie, bindingOf(request.cookies[sessionCookie]))
      ) {
        throw csrfFailed('CSRF token missing or incorrect.')
      }
    }

    const sessionLookups = createSessionLookups(db, now)

    app.addHook('onRequest', async (request, reply) => {
      if (UNSAFE_METHODS.has(request.method)) checkWriteOrigin(request)
      const sessionId = request.cookies[sessionCookie]
      if (!sessionId || sessionId.length > 200) return
      const idHash = sha256(sessionId)
      const row = await sessionLookups.read(idHash)
      if (!row || row.expiresAt.getTime() <= now().getTime()) return
      const { expiresAt, ...user } = row
      request.user = user
      request.sessionHash = idHash
      request.sessionExpiresAt = expiresAt
      // Rolling expiry: an active member stays logged in. The row is extended at most once a
      // day, and the cookie with it, or the browser would drop it on the old date anyway.
      if (expiresAt.getTime() - now().getTime() < (SESSION_DAYS - 1) * DAY_MS) {
        const extended = new Date(now().getTime() + SESSION_DAYS * DAY_MS)
        await db.update(sessions).set({ expiresAt: extended }).where(eq(sessions.idHash, idHash))
        setSessionCookie(reply, sessionId, extended)
        request.sessionExpiresAt = extended
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
      setSessionCookie(this, sessionId, expiresAt)
      // The visitor's token was bound to no session (or the previous one): this one is for the
      // new session, and the page reads it before its next write.
      setCsrfCookie(this, bindingOf(sessionId))
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
      request.sessionExpiresAt = null
      this.clearCookie(sessionCookie, { ...cookieBase, httpOnly: true })
      setCsrfCookie(this, '')
    })

    app.decorateReply('ensureCsrfCookie', function (this: FastifyReply) {
      const binding = bindingOf(this.request.cookies[sessionCookie])
      const current = this.request.cookies[CSRF_COOKIE]
      if (current && csrf.isValid(current, binding)) return
      setCsrfCookie(this, binding)
    })
  },
  { name: 'session' },
)

/** The origin the request was addressed to, as the browser would write it in `Origin`. */
type SessionRow = {
  id: number
  username: string
  email: string
  isSuperuser: boolean
  expiresAt: Date
}

/** A session and its member. */
export const SESSION_READ: CachedRead = {
  name: 'session',
  versions: ['members'],
  dependsOn: {
    sessions: ['id_hash', 'user_id', 'expires_at'],
    users: ['id', 'username', 'email', 'is_superuser'],
  },
}

/**
 * A session and its member, by the hash of the cookie, remembered while the members' version
 * stands (`cachedByVersion`): a login, a logout, a new password, a changed or deleted account or
 * an extended expiry all raise it, in whichever process, so none is answered from an older
 * state, while a member's reads cost no query of their own. The expiry is checked again by the
 * caller, against the time of the request.
 */
export function createSessionLookups(db: Db, now: () => Date) {
  const read = cachedByVersion(
    db,
    SESSION_READ,
    async (idHash: string): Promise<SessionRow | null> => {
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
      return row ?? null
    },
  )
  return {
    /** A copy: the request may change its own. */
    async read(idHash: string): Promise<SessionRow | null> {
      const row = await read(idHash)
      return row && { ...row }
    },
  }
}

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`
}
