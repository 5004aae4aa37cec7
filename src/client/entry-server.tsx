// The page's first screen rendered on the server: the same routes, loaders and components as in
// the browser (main.tsx), rendered to HTML by React once the session and the screen's data are
// known, so the content shows before the page's code has loaded. The browser then hydrates it.
// Built by Vite into dist/render (scripts/build.mjs) and called by the server
// (plugins/page-render.ts).
import { AsyncLocalStorage } from 'node:async_hooks'
import { Writable } from 'node:stream'
import { dehydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query'
import { StrictMode, type ReactNode } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  isRouteErrorResponse,
  matchRoutes,
  StaticRouterProvider,
  type HydrationState,
} from 'react-router'
import { screenPreloads } from 'virtual:screen-preloads'
import type { ApiTransport, RenderedPage, RenderOptions } from '#contract/page-render'
import { AppProvider } from './app/provider'
import { createAppRoutes, type RouteHandle } from './app/router'
import { setApiTransport } from './lib/api-client'
import { SCREEN_FILES_ID } from './lib/load-after-paint'
import { createQueryClient } from './lib/query-client'
import { newSeed } from './lib/seeded-random'
import { SERVER_STATE_ID } from './lib/server-state'

/** What main.tsx reads back from the page to hydrate it. */
export type ServerState = {
  router: HydrationState
  queries: DehydratedState
}

// Each render's requests go out with that render's visitor: several renders run at once.
const transports = new AsyncLocalStorage<ApiTransport>()
setApiTransport((url, init) => {
  const send = transports.getStore()
  if (!send) return Promise.reject(new Error('an API request outside a server render'))
  return send(url, init)
})

/**
 * Data, not code (the page's CSP runs no inline script but its own). `<` is escaped, so no text
 * in it (a podclub's title) can close the element.
 */
function stateScript(state: ServerState) {
  const json = JSON.stringify(state).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${SERVER_STATE_ID}">${json}</script>`
}

/**
 * The tags React hoists (`<title>`, `<meta>`, `<link>`) come first in its output when it renders
 * into an element rather than a whole document: they go into the head, the rest into #root.
 */
const HOISTED = /^(?:<title>[^<]*<\/title>|<(?:meta|link)\b[^>]*\/?>)*/

/**
 * Renders `element` to HTML once everything in it is ready. Aborted with `signal`, React stops
 * rendering and the promise rejects; an error inside the tree rejects too, so the browser renders
 * that page itself rather than hydrating a part React gave up on.
 */
function renderToHtml(element: ReactNode, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = ''
    let failed = false
    const fail = (error: unknown) => {
      failed = true
      reject(error instanceof Error ? error : new Error(String(error)))
    }
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        html += String(chunk)
        callback()
      },
      final(callback) {
        if (!failed) resolve(html)
        callback()
      },
    })
    const stream = renderToPipeableStream(element, {
      // The page is sent whole, once ready: every boundary's content in place, none sent apart
      // with an inline script to move it in (the page's CSP runs no inline script but its own).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => {
        if (!failed) stream.pipe(sink)
      },
      onShellError: fail,
      onError: fail,
    })
    const abort = () => {
      stream.abort(signal.reason)
      fail(signal.reason ?? new Error('the render was aborted'))
    }
    if (signal.aborted) abort()
    else signal.addEventListener('abort', abort, { once: true })
  })
}

/**
 * A route's error the browser can be handed and show the same: an answer with a status (the
 * not-found page), which crosses as JSON and still reads as one (`isRouteErrorResponse`).
 */
function handOverErrors(errors: Record<string, unknown> | null) {
  if (!errors) return { ok: true as const, errors: null }
  const ok = Object.values(errors).every((error) => isRouteErrorResponse(error))
  return { ok, errors }
}

/** The routes as addresses only, for telling which screen an address is without rendering it. */
const addresses = createAppRoutes(createQueryClient(), 'server')

/** The handle of the route the browser would show at each address seen lately. */
const handles = new Map<string, RouteHandle | undefined>()
const HANDLES_MAX = 1_000

/** The handle of the route at `url`: React Router ranks every route again for each match. */
function handleOf(url: URL): RouteHandle | undefined {
  if (handles.has(url.pathname)) return handles.get(url.pathname)
  const handle = matchRoutes(addresses, url.pathname)?.at(-1)?.route.handle as
    RouteHandle | undefined
  if (handles.size >= HANDLES_MAX) handles.clear()
  handles.set(url.pathname, handle)
  return handle
}

/**
 * Whether the page at `url` is rendered here and its loaders first ask who the viewer is: the
 * server may ask first and keep the page for every viewer given the same answer.
 */
export function asksViewerFirst(url: URL): boolean {
  const handle = handleOf(url)
  return !!handle?.serverRendered && handle.asksViewerFirst
}

/**
 * The soonest start after `now` of a podclub the page's data holds (ms), or null: a member's
 * seat buttons change then (`useHasStarted`), with no write to tell anyone.
 */
function nextStartShown(queryClient: QueryClient, now: number): number | null {
  let soonest: number | null = null
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key !== 'starts_at' || typeof inner !== 'string') visit(inner)
        else {
          const at = Date.parse(inner)
          if (at > now && (soonest === null || at < soonest)) soonest = at
        }
      }
    }
  }
  for (const query of queryClient.getQueryCache().getAll()) visit(query.state.data)
  return soonest
}

/**
 * The files of the screens a page shows beyond the page's entry, from the build's manifest
 * (vite.config.ts, `screenPreloads`), as the JSON list the page asks for once it has painted,
 * beside its entry (lib/load-after-paint.ts): Vite's preloading then finds them there and adds
 * none while the page starts.
 */
function screenFiles(matches: { route: { handle?: unknown } }[]) {
  const files = new Set(
    matches.flatMap(({ route }) => {
      const screen = (route.handle as RouteHandle | undefined)?.screen
      return screen ? (screenPreloads[screen] ?? []) : []
    }),
  )
  if (files.size === 0) return ''
  // File names from the build: nothing in them can close the script.
  return `<script type="application/json" id="${SCREEN_FILES_ID}">${JSON.stringify([...files])}</script>`
}

/** Renders the page at `url` for the visitor whose API requests `send` carries. */
export function renderPage(
  url: URL,
  send: ApiTransport,
  { signal }: RenderOptions,
): Promise<RenderedPage> {
  return transports.run(send, async (): Promise<RenderedPage> => {
    // One cache per render: nothing of one visitor's may show in another's page. A failed
    // request is not tried again here; the browser asks again.
    const queryClient = createQueryClient({ queries: { retry: false } })
    let seeded = false
    const routes = createAppRoutes(queryClient, 'server', {
      drawSeed: () => {
        seeded = true
        return newSeed()
      },
    })
    if (!handleOf(url)?.serverRendered) return { kind: 'shell' }
    // Before the render: a start between now and the render's clock makes the page change at once.
    const startedAt = Date.now()

    const handler = createStaticHandler(routes)
    const context = await handler.query(new Request(url, { signal }))
    if (context instanceof Response) {
      const location = context.headers.get('location')
      return location && context.status >= 300 && context.status < 400
        ? { kind: 'redirect', status: context.status, location }
        : { kind: 'shell' }
    }
    // A route's answer with a status (404: a bad id, a podclub that does not exist) is rendered
    // as the browser shows it. A failed loader or a screen whose data did not come (a failing
    // API) is left to the browser, which asks again.
    const handed = handOverErrors(context.errors)
    const failedQuery = queryClient
      .getQueryCache()
      .getAll()
      .some((query) => query.state.status === 'error')
    if (!handed.ok || failedQuery) return { kind: 'shell' }

    const router = createStaticRouter(handler.dataRoutes, context)
    const html = await renderToHtml(
      <StrictMode>
        <AppProvider queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProvider>
      </StrictMode>,
      signal,
    )
    const head = HOISTED.exec(html)?.[0] ?? ''
    return {
      kind: 'page',
      status: context.statusCode,
      head: head + screenFiles(context.matches),
      body: html.slice(head.length),
      stateScript: stateScript({
        router: {
          loaderData: context.loaderData,
          actionData: context.actionData,
          errors: handed.errors,
        },
        queries: dehydrate(queryClient),
      }),
      changesAt: nextStartShown(queryClient, startedAt),
      seeded,
    }
  })
}
