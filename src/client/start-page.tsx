import { hydrate, type DehydratedState } from '@tanstack/react-query'
import { startTransition, StrictMode, type ErrorInfo } from 'react'
import { createRoot, hydrateRoot, type Root } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router'
import { AppProvider } from './app/provider'
import { connectSessionExpiry, createAppRoutes } from './app/router'
import type { ServerState } from './entry-server'
import { releaseEarlyTaps } from './lib/early-taps'
import { HydrationEnds, hydrationBegins, whenHydrated } from './lib/hydration'
import { legacySignupPath } from './lib/legacy-links'
import { nextTask } from './lib/next-task'
import { createQueryClient, forgetHandedOver, markHandedOver } from './lib/query-client'
import { SERVER_STATE_ID } from './lib/server-state'

/** What the server left in the page when it rendered the first screen (entry-server.tsx). */
function takeServerState(): ServerState | null {
  const script = document.getElementById(SERVER_STATE_ID)
  if (!script?.textContent) return null
  script.remove()
  return JSON.parse(script.textContent) as ServerState
}

/**
 * The server's answers, dated no earlier than this page's navigation: the server sends a page it
 * kept only while the versions its data stands on still stand (docs/decisions/032), so its data
 * is as of when the page was asked for, however long before it was rendered. The query cache
 * then counts it fresh from there and does not ask again on arrival.
 */
function answeredByNavigation(queries: DehydratedState): DehydratedState {
  const asked = Math.floor(performance.timeOrigin)
  return {
    ...queries,
    queries: queries.queries.map((query) => ({
      ...query,
      state: { ...query.state, dataUpdatedAt: Math.max(query.state.dataUpdatedAt, asked) },
    })),
  }
}

/** The first screen's code, before hydrating: the router would render its fallback meanwhile. */
async function loadFirstScreen(routes: RouteObject[]) {
  const lazyMatches = (matchRoutes(routes, window.location) ?? []).filter((m) => m.route.lazy)
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return
      Object.assign(route, await route.lazy(), { lazy: undefined })
    }),
  )
}

/**
 * A server's HTML that the first render in the browser did not match (or another error React
 * recovered from by rendering anew): reported with what finds it, in production too.
 */
export function reportRecoverableError(error: unknown, info: ErrorInfo) {
  const cause = error instanceof Error && error.cause ? error.cause : undefined
  console.error('podclub: React recovered from an error while hydrating', {
    page: window.location.pathname,
    error,
    cause,
    componentStack: info.componentStack,
  })
}

/**
 * Starts the page in #root: hydrates what the server rendered, with the state it handed over, or
 * renders the page itself from the shell. Resolves once React has it.
 */
export async function startPage({
  onRecoverableError = reportRecoverableError,
}: { onRecoverableError?: typeof reportRecoverableError } = {}) {
  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  let serverState = takeServerState()

  // Rewritten before the router starts, so an old invite link loads the register screen
  // directly instead of flashing Home first. The root layout handles in-app hash changes.
  const legacyPath = legacySignupPath(window.location.hash)
  if (legacyPath) {
    window.history.replaceState(null, '', legacyPath)
    // The server rendered the page the link's address named, not the one it leads to.
    serverState = null
  }

  // Starting the page is split into tasks (nextTask) a few milliseconds long each, rather than
  // one as long as all of them: on a slow phone a task of 50 ms or more holds back a tap and
  // counts as blocking time. The page, rendered by the server, shows meanwhile, and taps wait
  // in early-taps.ts.
  await nextTask()
  const queryClient = createQueryClient()
  const routes = createAppRoutes(queryClient, 'browser')
  if (serverState) {
    hydrate(queryClient, answeredByNavigation(serverState.queries))
    markHandedOver(queryClient)
    await loadFirstScreen(routes)
    await nextTask()
  }
  const router = createBrowserRouter(
    routes,
    serverState ? { hydrationData: serverState.router } : undefined,
  )
  connectSessionExpiry(queryClient, router)

  const page = (
    <AppProvider queryClient={queryClient}>
      {/* React DOM's flushSync, for navigations that ask for it (what react-router/dom adds). */}
      <RouterProvider
        router={router}
        flushSync={(update) => {
          flushSync(update)
        }}
      />
    </AppProvider>
  )
  const app = <StrictMode>{serverState ? <HydrationEnds>{page}</HydrationEnds> : page}</StrictMode>
  await nextTask()
  // Taps held since the first paint are replayed once React listens: a press on a part still
  // to hydrate makes React hydrate it at once (docs/decisions/027).
  const replayEarlyTaps = releaseEarlyTaps()
  let root: Root
  if (serverState) {
    // In a transition, React hydrates in slices of a few milliseconds and lets the browser
    // answer in between, instead of one task as long as the page (a phone's slowest); a press
    // on a part not yet hydrated still hydrates that part at once.
    let hydrated: Root | undefined
    hydrationBegins()
    whenHydrated(forgetHandedOver)
    startTransition(() => {
      hydrated = hydrateRoot(container, app, { onRecoverableError })
    })
    root = hydrated!
  } else {
    container.replaceChildren()
    root = createRoot(container)
    root.render(app)
  }
  replayEarlyTaps()
  return root
}
