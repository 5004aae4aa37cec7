import type { FastifyRequest } from 'fastify'
import pino, { type DestinationStream } from 'pino'
import { type PageRoute, pageRoutes } from '#contract/pages'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Path parameters of the route that are secrets (a token, a code): logged as `***`. */
    secretParams?: readonly string[]
  }
}

const MASK = '***'
/** The longest URL a log line carries; a longer one is cut and says so. */
export const MAX_LOGGED_URL_LENGTH = 2048
const CUT_MARK = '…[cut]'

/** The route Fastify matched for a request, as much of it as the log needs. */
export type MatchedRoute = {
  /** The declared path, such as `/api/v1/polls/:pollId/:voteCode/`. */
  pattern: string
  params: Record<string, string | undefined>
  secretParams?: readonly string[]
}

/**
 * A URL fit for the log, from what the routes declare:
 * - a route of ours whose contract declaration names `secretParams` (route() puts them in
 *   `config.secretParams`) is written from its pattern, with those parameters as `***`, however
 *   the URL spelled it;
 * - a page address (the contract's `pageRoutes`, answered by the page fallback) has its secret
 *   parameters masked;
 * - any other route of ours is written as requested, and a path no route matched keeps only its
 *   first segment, as nothing says which of the rest might be a secret;
 * - every query value is `***`, and the whole is cut at MAX_LOGGED_URL_LENGTH.
 */
export function maskUrl(url: string, route?: MatchedRoute): string {
  const [rawPath = '', query] = url.split(/\?(.*)/s, 2)
  const path = route?.secretParams?.length
    ? writeRoute(route)
    : (maskPagePath(decodeUnreserved(rawPath)) ?? (route ? rawPath : firstSegmentOnly(rawPath)))
  let masked = path
  if (query !== undefined) {
    const keys = query
      .split('&')
      .filter(Boolean)
      .map((pair) => `${pair.split('=')[0]}=${MASK}`)
    masked = `${path}?${keys.join('&')}`
  }
  return masked.length > MAX_LOGGED_URL_LENGTH
    ? `${masked.slice(0, MAX_LOGGED_URL_LENGTH - CUT_MARK.length)}${CUT_MARK}`
    : masked
}

function writeRoute({ pattern, params, secretParams = [] }: MatchedRoute): string {
  const value = (name: string) =>
    secretParams.includes(name) ? MASK : encodeURIComponent(params[name] ?? '')
  // One pass: a `***` just written must not be read as the pattern's wildcard.
  return pattern.replace(/:(\w+)(?:\([^)]*\))?\??|\*$/g, (_all, name?: string) =>
    value(name ?? '*'),
  )
}

/**
 * The page's router matches after decoding, so `/%70olls/...` is `/polls/...`: letters, digits
 * and `-._~` are decoded first, so that every spelling is masked alike.
 */
function decodeUnreserved(rawPath: string): string {
  return rawPath.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16))
    return /[\w.~-]/.test(char) ? char : escape
  })
}

/** A path nothing declares: nothing says which segment might be a secret but the first. */
function firstSegmentOnly(rawPath: string): string {
  const [, first = '', ...rest] = rawPath.split('/')
  return rest.length === 0 ? rawPath : `/${first}/${rest.map((s) => (s ? MASK : s)).join('/')}`
}

/** `path` with its secret segments masked, when it is one of the page's addresses. */
function maskPagePath(path: string): string | undefined {
  for (const page of pageRoutes) {
    const masked = maskAsPage(path, page)
    if (masked !== undefined) return masked
  }
  return undefined
}

/** `path` with the page's secret segments masked, when it is that page's address. */
function maskAsPage(path: string, page: PageRoute): string | undefined {
  const wanted = page.path.split('/').filter(Boolean)
  const segments = path.split('/')
  const given = segments.slice(1).filter((s, i, all) => s !== '' || i < all.length - 1)
  if (given.some((s) => s === '')) return undefined
  const out: string[] = []
  let at = 0
  for (const part of wanted) {
    const param = /^:(\w+)(\?)?$/.exec(part)
    const segment = given[at]
    if (segment === undefined) {
      if (param?.[2]) continue
      return undefined
    }
    if (param) {
      out.push(page.secretParams?.includes(param[1]!) ? MASK : segment)
    } else {
      // React Router matches static segments whatever their case.
      if (segment.toLowerCase() !== part.toLowerCase()) return undefined
      out.push(segment)
    }
    at += 1
  }
  if (at !== given.length) return undefined
  const trailingSlash = path.length > 1 && path.endsWith('/')
  return `/${out.join('/')}${trailingSlash && out.length > 0 ? '/' : ''}`
}

function matchedRoute(request: FastifyRequest): MatchedRoute | undefined {
  const pattern = request.routeOptions?.url
  if (!pattern) return undefined
  return {
    pattern,
    params: (request.params ?? {}) as Record<string, string | undefined>,
    secretParams: request.routeOptions.config?.secretParams,
  }
}

/** The process's logger: JSON lines, with requests logged without their secrets. */
export function createLogger(level: string, destination?: DestinationStream) {
  return pino(
    {
      level,
      base: { app: 'podclub' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: maskUrl(request.url, matchedRoute(request)),
          remoteAddress: request.ip,
        }),
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      },
    },
    destination,
  )
}
