// The page's first screen drawn on the server: the same routes, loaders and components as in the
// browser (main.tsx), rendered to HTML once the session and the screen's data are known, so the
// content shows before the page's code has loaded. The browser then hydrates it. Built by Vite
// into dist/render (scripts/build.mjs) and called by the server (plugins/static-page.ts).
import { AsyncLocalStorage } from 'node:async_hooks'
import { dehydrate, type DehydratedState } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  StaticRouterProvider,
  type HydrationState,
} from 'react-router'
import { escapeHtml } from '#contract/html'
import { AppProvider } from './app/provider'
import { TitleSinkContext, type TitleSink } from './components/ui/document-title'
import { createAppRoutes, type RouteHandle } from './app/router'
import { setApiTransport } from './lib/api-client'
import { createQueryClient } from './lib/query-client'
import { SERVER_STATE_ID } from './lib/server-state'

/** Sends one of the page's API requests to the server's own routes, as the visitor. */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>

/** What main.tsx reads back from the page to hydrate it. */
export type ServerState = {
  router: HydrationState
  queries: DehydratedState
}

export type RenderedPage =
  | {
      kind: 'page'
      status: number
      /** `<title>` and the like, for the document's head. */
      head: string
      /** The markup of #root. */
      body: string
      /** The script that hands main.tsx the state the page was drawn with. */
      stateScript: string
    }
  | { kind: 'redirect'; status: number; location: string }
  /** A page the browser draws from the shell. */
  | { kind: 'shell' }

// Each render's requests go out with that render's visitor: several renders run at once.
const transports = new AsyncLocalStorage<ApiTransport>()
setApiTransport((url, init) => {
  const send = transports.getStore()
  if (!send) return Promise.reject(new Error('an API request outside a server render'))
  return send(url, init)
})

/**
 * Data, not code (the page's CSP runs no inline script). `<` is escaped, so no text in it (a
 * podclub's title) can close the element.
 */
function stateScript(state: ServerState) {
  const json = JSON.stringify(state).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${SERVER_STATE_ID}">${json}</script>`
}

/** Draws the page at `url` for the visitor whose API requests `send` carries. */
export function renderPage(url: URL, send: ApiTransport): Promise<RenderedPage> {
  return transports.run(send, async (): Promise<RenderedPage> => {
    // One cache per render: nothing of one visitor's may show in another's page. A failed
    // request is not tried again here; the browser asks again.
    const queryClient = createQueryClient({ queries: { retry: false } })
    const routes = createAppRoutes(queryClient)
    const matches = matchRoutes(routes, url.pathname)
    const handle = matches?.at(-1)?.route.handle as RouteHandle | undefined
    if (!handle?.serverRendered) return { kind: 'shell' }

    const handler = createStaticHandler(routes)
    const context = await handler.query(new Request(url))
    if (context instanceof Response) {
      const location = context.headers.get('location')
      return location && context.status >= 300 && context.status < 400
        ? { kind: 'redirect', status: context.status, location }
        : { kind: 'shell' }
    }
    // An error page (a bad id, a failed loader) and a screen whose data did not come (a podclub
    // that does not exist, a failing API) are drawn by the browser, as before: the error is not
    // handed over, and the browser asks again.
    const failedQuery = queryClient
      .getQueryCache()
      .getAll()
      .some((query) => query.state.status === 'error')
    if (context.errors || failedQuery) return { kind: 'shell' }

    const router = createStaticRouter(handler.dataRoutes, context)
    // Parts whose code loads apart are drawn by the browser (lib/hydration.tsx): nothing suspends.
    let title: string | undefined
    const titleSink: TitleSink = (screenTitle) => {
      title = screenTitle
    }
    const markup = renderToString(
      <StrictMode>
        <TitleSinkContext.Provider value={titleSink}>
          <AppProvider queryClient={queryClient}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </AppProvider>
        </TitleSinkContext.Provider>
      </StrictMode>,
    )
    return {
      kind: 'page',
      status: context.statusCode,
      head: title === undefined ? '' : `<title>${escapeHtml(title)}</title>`,
      body: markup,
      stateScript: stateScript({
        router: { loaderData: context.loaderData, actionData: context.actionData },
        queries: dehydrate(queryClient),
      }),
    }
  })
}
