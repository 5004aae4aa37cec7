import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { getWhoamiEndpoint } from '#contract/auth'
import { API_PREFIX } from '#contract/endpoint'
import {
  pageHtml,
  ROOT_ELEMENT,
  type ApiTransport,
  type RenderedPage,
  type RenderModule,
} from '#contract/page-render'
import { collectVersions, type Versions } from '../db/cache-versions'
import type { Db } from '../db/client'
import { encode, pickEncoding } from '../lib/content-encoding'
import {
  createPageCache,
  type KeptPage,
  type PageCacheOptions,
  type PageRead,
  type PageToKeep,
} from './page-cache'
import { REQUEST_ID_HEADER } from './request-id'
import type { VisitorSession } from './session'

/**
 * The first screen rendered on the server (docs/decisions/023, 027): the build's render module
 * (src/client/entry-server.tsx, built into dist/render) renders a page's HTML with the same routes
 * and components as the browser; its API requests go to this server's own routes through
 * `app.inject`, with the visitor's cookie and address, so every rule of the API applies as if
 * the browser had asked.
 *
 * A page is kept and sent again to every viewer the API describes the same way, while what it
 * read stands (docs/decisions/032, page-cache.ts): the server asks whoami first (for a request
 * without a session cookie it knows the answer, and the CSRF cookie whoami would set, without
 * asking), keys the page by that answer and its address, and renders it only when no page kept
 * for that key stands at the database's versions. What is the request's own (the cookies whoami
 * sets, its request id, the compression it accepts) is never part of what is kept.
 */

/**
 * Longer than this and the render is aborted (its loaders and React's render stop) and the
 * browser renders the page from the shell: it is not held up.
 */
const RENDER_TIMEOUT_MS = 2_000

const WHOAMI_URL = `${API_PREFIX}${getWhoamiEndpoint.path}`

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

/** One API answer as the render module reads it. */
type ApiAnswer = { status: number; contentType: string; body: Buffer }

/**
 * Who the viewer is, by the API's word, and the cookies that word sets on this answer; `asked`
 * when whoami itself was asked (a request with a session cookie), whose cookies go out whatever
 * the page (a session it extended must reach the browser).
 */
type Viewer = { answer: ApiAnswer; cookies: string[]; asked: boolean }

/** What one render of a page came to, for the request that made it. */
type Outcome = {
  /** Null when the render failed or took too long: the shell goes instead. */
  rendered: RenderedPage | null
  /** What the page's API requests set. */
  cookies: string[]
  /** The page to keep for everyone with the same key, or null. */
  keep: PageToKeep | null
}

export type PageRenderer = {
  /** Sends the page rendered for this request; false when the shell is to be sent instead. */
  send: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>
}

/** What lets pages be kept for every viewer with the same answer from whoami. */
export type PageSharing = {
  /** Whose versions the kept pages stand on. */
  db: Db
  /** The API reads a kept page may make (app.ts lists them from the features). */
  reads: readonly PageRead[]
  /** What the session gives a request without a session cookie (session.ts). */
  visitor: VisitorSession
  limits?: PageCacheOptions
}

/** A read's path as a pattern of the URLs that ask it: `:name` is one segment. */
function pathPattern(read: PageRead) {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const parts = `${API_PREFIX}${read.endpoint.path}`.split(/:\w+/).map(escape)
  return { read, pattern: new RegExp(`^${parts.join('[^/?]+')}$`) }
}

/** Loads the render module for the page's template; null when the build has no render module. */
export async function createPageRenderer(
  app: FastifyInstance,
  {
    renderModule,
    template,
    page,
    policy,
    sharing,
  }: {
    renderModule: string
    /** The template's file, named in an error, and its text. */
    template: string
    page: string
    policy: string
    /** Keep pages for every viewer with the same answer (off: each request renders its own). */
    sharing?: PageSharing
  },
): Promise<PageRenderer | null> {
  if (!existsSync(renderModule)) return null
  let module: RenderModule
  try {
    module = (await import(pathToFileURL(renderModule).href)) as RenderModule
  } catch (err) {
    // A broken build of the render module: every page is rendered by the browser, as before.
    app.log.error(
      { err, renderModule },
      'cannot load the render module; pages start from the shell',
    )
    return null
  }
  const { renderPage } = module
  if (!page.includes(ROOT_ELEMENT)) {
    throw new Error(`${template} has no ${ROOT_ELEMENT} to render the page into`)
  }
  // A render module built before pages were kept says nothing of its screens: none is kept.
  const asksViewerFirst = (url: URL) =>
    typeof module.asksViewerFirst === 'function' && module.asksViewerFirst(url)
  const cache = sharing && createPageCache(sharing.db, sharing.limits)
  const reads = (sharing?.reads ?? []).map(pathPattern)

  /** One API request as the visitor: their cookie, browser and address, this request's id. */
  const ask = async (request: FastifyRequest, url: string, method = 'GET') => {
    const answer = await app.inject({
      method: method as 'GET',
      url,
      headers: {
        accept: 'application/json',
        ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
        ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
        [REQUEST_ID_HEADER]: request.id,
      },
      remoteAddress: request.ip,
    })
    // Whoami hands out the CSRF cookie the page's first write needs.
    const setCookie = answer.headers['set-cookie']
    return {
      answer: {
        status: answer.statusCode,
        contentType: String(answer.headers['content-type'] ?? ''),
        body: answer.rawPayload,
      } satisfies ApiAnswer,
      cookies: setCookie ? (Array.isArray(setCookie) ? setCookie : [setCookie]) : [],
    }
  }
  const asResponse = (answer: ApiAnswer) =>
    new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': answer.contentType },
    })

  /** Whoami's answer to a request without a session: the same for all of them, asked once. */
  let visitorAnswer: Promise<ApiAnswer> | undefined
  /** The viewer of `request`: for one without a session cookie, known without asking. */
  const viewerOf = async (request: FastifyRequest): Promise<Viewer> => {
    const cookies = sharing?.visitor.cookiesFor(request.headers.cookie)
    if (!cookies) return { ...(await ask(request, WHOAMI_URL)), asked: true }
    if (!visitorAnswer) {
      const asked = app
        .inject({ method: 'GET', url: WHOAMI_URL, headers: { accept: 'application/json' } })
        .then((res) => ({
          status: res.statusCode,
          contentType: String(res.headers['content-type'] ?? ''),
          body: res.rawPayload,
        }))
      visitorAnswer = asked
      asked.catch(() => {
        if (visitorAnswer === asked) visitorAnswer = undefined
      })
    }
    return { answer: await visitorAnswer, cookies, asked: false }
  }

  /**
   * Renders the page for `request`. With `viewer`, whoami is answered from it; the page may be
   * kept when it is a 200 page whose other requests are all `reads` with shared answers.
   */
  const render = async (
    request: FastifyRequest,
    url: URL,
    viewer: Viewer | null,
  ): Promise<Outcome> => {
    const cookies: string[] = []
    const made: { url: string; method: string; answer: ApiAnswer; setCookie: boolean }[] = []
    let askedViewer = false
    const transport: ApiTransport = async (to, init) => {
      const method = init.method ?? 'GET'
      if (viewer && method === 'GET' && to === WHOAMI_URL) {
        askedViewer = true
        return asResponse(viewer.answer)
      }
      const { answer, cookies: set } = await ask(request, to, method)
      cookies.push(...set)
      made.push({ url: to, method, answer, setCookie: set.length > 0 })
      return asResponse(answer)
    }

    const timeLimit = new AbortController()
    const timer = setTimeout(
      () => timeLimit.abort(new Error(`the render took over ${RENDER_TIMEOUT_MS} ms`)),
      RENDER_TIMEOUT_MS,
    )
    let rendered: RenderedPage
    /** The versions the page's reads consulted: what a kept page stands on. */
    let consulted: Versions = new Map()
    try {
      // The module stops its work on the signal; the server stops waiting on it regardless.
      const made = collectVersions(() => renderPage(url, transport, { signal: timeLimit.signal }))
      ;({ value: rendered, versions: consulted } = await Promise.race([
        made,
        rejectedOnAbort(timeLimit.signal),
      ]))
    } catch (err) {
      // The browser renders the page as it would without the server's help.
      request.log.warn(
        { err, aborted: timeLimit.signal.aborted },
        'could not render the page on the server; sending the shell',
      )
      return { rendered: null, cookies, keep: null }
    } finally {
      clearTimeout(timer)
    }
    if (viewer && (askedViewer || viewer.asked)) cookies.unshift(...viewer.cookies)

    let keep: PageToKeep | null = null
    if (
      askedViewer &&
      madeOfSharedReads(made) &&
      rendered.kind === 'page' &&
      rendered.status === 200
    ) {
      keep = {
        html: Buffer.from(pageHtml(page, rendered)),
        versions: consulted,
        changesAt: rendered.changesAt,
        seeded: rendered.seeded,
      }
    }
    return { rendered, cookies, keep }
  }

  /**
   * Whether every request a page made is a read a kept page may make, answered 200, the same for
   * everyone and without setting a cookie.
   */
  const madeOfSharedReads = (
    made: { url: string; method: string; answer: ApiAnswer; setCookie: boolean }[],
  ): boolean =>
    made.every((request) => {
      const declared = reads.find(
        ({ read, pattern }) => read.endpoint.method === request.method && pattern.test(request.url),
      )?.read
      if (!declared || request.answer.status !== 200 || request.setCookie) return false
      return !declared.shared || declared.shared(JSON.parse(request.answer.body.toString()))
    })

  const pageHeaders = (reply: FastifyReply, cookies: string[]) => {
    if (cookies.length > 0) reply.header('set-cookie', cookies)
    reply.header('cache-control', 'private, no-cache')
    reply.header('content-security-policy', policy)
  }

  /** Sends what a render came to, as every page was sent before pages were kept. */
  const sendOutcome = async (request: FastifyRequest, reply: FastifyReply, outcome: Outcome) => {
    const { rendered, cookies } = outcome
    if (!rendered || rendered.kind === 'shell') return false
    pageHeaders(reply, cookies)
    if (rendered.kind === 'redirect') {
      await reply.redirect(rendered.location, rendered.status)
      return true
    }
    reply.code(rendered.status).type('text/html; charset=utf-8')
    await reply.send(await compressed(request, reply, pageHtml(page, rendered)))
    return true
  }

  /** Sends a kept page, compressed once for everyone, with this request's own cookies. */
  const sendKept = async (
    request: FastifyRequest,
    reply: FastifyReply,
    kept: KeptPage,
    cookies: string[],
  ) => {
    pageHeaders(reply, cookies)
    reply.code(200).type('text/html; charset=utf-8')
    const encoding = pickEncoding(request.headers['accept-encoding'])
    reply.header('vary', 'accept-encoding')
    if (encoding !== 'identity') reply.header('content-encoding', encoding)
    await reply.send(await kept.body(encoding))
    return true
  }

  return {
    async send(request, reply) {
      const url = new URL(request.url, 'http://page.invalid')
      if (!cache || !asksViewerFirst(url)) {
        return sendOutcome(request, reply, await render(request, url, null))
      }
      const viewer = await viewerOf(request)
      if (viewer.answer.status !== 200) {
        return sendOutcome(request, reply, await render(request, url, viewer))
      }
      let own: Outcome | undefined
      const kept = await cache.page(
        `${viewer.answer.body.toString()}\n${url.pathname}${url.search}`,
        async () => {
          own = await render(request, url, viewer)
          return own.keep
        },
      )
      if (kept) return sendKept(request, reply, kept, viewer.cookies)
      // A page that may not be kept, or someone else's render of it that came to none: this
      // request's own, as before.
      own ??= await render(request, url, viewer)
      return sendOutcome(request, reply, own)
    },
  }
}
