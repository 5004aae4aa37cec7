import type { FastifyRequest } from 'fastify'
import pino, { type DestinationStream } from 'pino'

/**
 * Path segments that are secrets: a reset token, a vote code, a calendar feed token, an e-mail
 * confirmation token. They are masked wherever a URL is logged.
 */
const SECRET_SEGMENTS: RegExp[] = [
  /^(\/(?:api\/v1\/auth\/passwordreset\/[^/]+|password-reset)\/)[^/?#]+/i,
  /^(\/(?:api\/v1\/)?polls\/[^/?#]+\/)(?!invite\/|cast\/)[^/?#]+/i,
  /^(\/calendar\/)[^/?#]+/i,
  /^(\/(?:api\/v1\/)?unsubscribe\/(?:one-click\/)?\d+\/)[^/?#]+/i,
  /^(\/(?:api\/v1\/)?confirm[-_]?email\/)[^?#]+/i,
]

/**
 * A URL fit for the log: secret path segments and every query value replaced by `***`. The router
 * decodes the path before matching, so `/%70olls/...` reaches the same route as `/polls/...`:
 * letters, digits and `-._~` are decoded first, so that every spelling is masked alike.
 */
export function maskUrl(url: string): string {
  const [rawPath = '', query] = url.split(/\?(.*)/s, 2)
  const path = rawPath.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16))
    return /[\w.~-]/.test(char) ? char : escape
  })
  let masked = path
  for (const pattern of SECRET_SEGMENTS) masked = masked.replace(pattern, '$1***')
  if (query === undefined) return masked
  const keys = query
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=***`)
  return `${masked}?${keys.join('&')}`
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
          url: maskUrl(request.url),
          remoteAddress: request.ip,
        }),
        res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      },
    },
    destination,
  )
}
