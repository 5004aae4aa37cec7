import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

/**
 * The page loads only its own files and talks only to its own API. Inline styles stay allowed:
 * React and Radix position popovers with style attributes.
 */
const pageDirectives = (scriptSources: string) => [
  "default-src 'self'",
  `script-src ${scriptSources}`,
  "style-src 'self' 'unsafe-inline'",
  // Podcast pictures are links to the podcasts' own hosts.
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
]
const PAGE_CSP = pageDirectives("'self'").join('; ')

/**
 * The page's policy when it carries inline scripts of its own (the early taps, in the built
 * index.html): those exact scripts run, by their SHA-256, and no other inline script.
 */
export function pagePolicy(inlineScripts: readonly string[]) {
  const hashes = inlineScripts.map(
    (script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  )
  return pageDirectives(["'self'", ...hashes].join(' ')).join('; ')
}

/** Anything that is not a page (JSON, scripts, images) runs nothing when opened on its own. */
const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

/** Features the club never uses, refused for the page and anything it might embed. */
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), browsing-topics=()'

export type SecurityHeadersOptions = {
  /** Send Strict-Transport-Security: only when the app's public address is https. */
  hsts: boolean
}

/**
 * The headers every answer carries (docs/decisions/007). The CSP follows what is sent: an HTML
 * answer is the page unless its handler set a policy of its own (the API docs), anything else
 * runs nothing. Exported for the answers no hook sees (a URL Fastify cannot decode).
 */
export function setSecurityHeaders(reply: FastifyReply, { hsts }: SecurityHeadersOptions) {
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
  if (reply.statusCode === 304) {
    reply.removeHeader('content-security-policy')
  } else if (!reply.hasHeader('content-security-policy')) {
    const isHtml = String(reply.getHeader('content-type') ?? '').startsWith('text/html')
    reply.header('content-security-policy', isHtml ? PAGE_CSP : NON_PAGE_CSP)
  }
}

/** Puts the security headers on every answer the app sends, whichever route or error made it. */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, opts) => {
    app.addHook('onSend', async (_request, reply) => {
      setSecurityHeaders(reply, opts)
    })
  },
  { name: 'security-headers' },
)
