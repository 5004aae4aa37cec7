import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  pageHtml,
  ROOT_ELEMENT,
  type ApiTransport,
  type RenderedPage,
  type RenderModule,
} from '#contract/page-render'
import { encode, pickEncoding } from '../lib/content-encoding'
import { REQUEST_ID_HEADER } from './request-id'

/**
 * The first screen rendered on the server (docs/decisions/023, 027): the build's render module
 * (src/client/entry-server.tsx, built into dist/render) renders a page's HTML with the same routes
 * and components as the browser; its API requests go to this server's own routes through
 * `app.inject`, with the visitor's cookie and address, so every rule of the API applies as if
 * the browser had asked.
 */

/**
 * Longer than this and the render is aborted (its loaders and React's render stop) and the
 * browser renders the page from the shell: it is not held up.
 */
const RENDER_TIMEOUT_MS = 2_000

/** Rejects once `signal` aborts. */
function rejectedOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
  })
}

/** A page rendered per request is compressed per request: quickly, not as tightly as the build. */
async function compressed(request: FastifyRequest, reply: FastifyReply, html: string) {
  const encoding = pickEncoding(request.headers['accept-encoding'])
  reply.header('vary', 'accept-encoding')
  if (encoding === 'identity') return html
  reply.header('content-encoding', encoding)
  return encode(html, encoding, { brotliQuality: 5 })
}

export type PageRenderer = {
  /** Sends the page rendered for this request; false when the shell is to be sent instead. */
  send: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>
}

/** Loads the render module for the page's template; null when the build has no render module. */
export async function createPageRenderer(
  app: FastifyInstance,
  {
    renderModule,
    template,
    page,
    policy,
  }: {
    renderModule: string
    /** The template's file, named in an error, and its text. */
    template: string
    page: string
    policy: string
  },
): Promise<PageRenderer | null> {
  if (!existsSync(renderModule)) return null
  let renderPage: RenderModule['renderPage']
  try {
    ;({ renderPage } = (await import(pathToFileURL(renderModule).href)) as RenderModule)
  } catch (err) {
    // A broken build of the render module: every page is rendered by the browser, as before.
    app.log.error(
      { err, renderModule },
      'cannot load the render module; pages start from the shell',
    )
    return null
  }
  if (!page.includes(ROOT_ELEMENT)) {
    throw new Error(`${template} has no ${ROOT_ELEMENT} to render the page into`)
  }

  return {
    async send(request, reply) {
      const cookies: string[] = []
      const transport: ApiTransport = async (url, init) => {
        const answer = await app.inject({
          method: (init.method ?? 'GET') as 'GET',
          url,
          headers: {
            accept: 'application/json',
            ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
            ...(request.headers['user-agent']
              ? { 'user-agent': request.headers['user-agent'] }
              : {}),
            [REQUEST_ID_HEADER]: request.id,
          },
          remoteAddress: request.ip,
        })
        // Whoami hands out the CSRF cookie the page's first write needs.
        const setCookie = answer.headers['set-cookie']
        if (setCookie) cookies.push(...(Array.isArray(setCookie) ? setCookie : [setCookie]))
        return new Response(answer.rawPayload, {
          status: answer.statusCode,
          headers: { 'content-type': String(answer.headers['content-type'] ?? '') },
        })
      }

      const timeLimit = new AbortController()
      const timer = setTimeout(
        () => timeLimit.abort(new Error(`the render took over ${RENDER_TIMEOUT_MS} ms`)),
        RENDER_TIMEOUT_MS,
      )
      let rendered: RenderedPage
      try {
        const url = new URL(request.url, 'http://page.invalid')
        // The module stops its work on the signal; the server stops waiting on it regardless.
        rendered = await Promise.race([
          renderPage(url, transport, { signal: timeLimit.signal }),
          rejectedOnAbort(timeLimit.signal),
        ])
      } catch (err) {
        // The browser renders the page as it would without the server's help.
        request.log.warn(
          { err, aborted: timeLimit.signal.aborted },
          'could not render the page on the server; sending the shell',
        )
        return false
      } finally {
        clearTimeout(timer)
      }
      if (rendered.kind === 'shell') return false

      if (cookies.length > 0) reply.header('set-cookie', cookies)
      reply.header('cache-control', 'private, no-cache')
      reply.header('content-security-policy', policy)
      if (rendered.kind === 'redirect') {
        await reply.redirect(rendered.location, rendered.status)
        return true
      }
      const html = pageHtml(page, rendered)
      reply.code(rendered.status).type('text/html; charset=utf-8')
      await reply.send(await compressed(request, reply, html))
      return true
    },
  }
}
