// First: zod must know it may not eval before any screen's schemas load.
import './lib/zod-jitless'
import { hydrate } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { AppProvider } from './app/provider'
import { connectSessionExpiry, createAppRoutes } from './app/router'
import type { ServerState } from './entry-server'
import { markPageLive, takeOver } from './lib/hydration'
import { legacySignupPath } from './lib/legacy-links'
import { createQueryClient } from './lib/query-client'
import { SERVER_STATE_ID } from './lib/server-state'
import './styles.css'

/** What the server left in the page when it drew the first screen (entry-server.tsx). */
function takeServerState(): ServerState | null {
  const script = document.getElementById(SERVER_STATE_ID)
  if (!script?.textContent) return null
  script.remove()
  return JSON.parse(script.textContent) as ServerState
}

/** The first screen's code, before hydrating: the router would draw its fallback meanwhile. */
async function loadFirstScreen(routes: RouteObject[]) {
  const lazyMatches = (matchRoutes(routes, window.location) ?? []).filter((m) => m.route.lazy)
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return
      Object.assign(route, await route.lazy(), { lazy: undefined })
    }),
  )
}

async function start() {
  const container = document.getElementById('root')
  if (!container) throw new Error('index.html has no #root element')
  let serverState = takeServerState()

  // Rewritten before the router starts, so an old invite link loads the register screen
  // directly instead of flashing Home first. The root layout handles in-app hash changes.
  const legacyPath = legacySignupPath(window.location.hash)
  if (legacyPath) {
    window.history.replaceState(null, '', legacyPath)
    // The server drew the page the link's address named, not the one it leads to.
    serverState = null
  }

  const queryClient = createQueryClient()
  const routes = createAppRoutes(queryClient)
  if (serverState) {
    hydrate(queryClient, serverState.queries)
    await loadFirstScreen(routes)
  }
  const router = createBrowserRouter(
    routes,
    serverState ? { hydrationData: serverState.router } : undefined,
  )
  connectSessionExpiry(queryClient, router)
  // Starting the router and taking the page over are two tasks, each shorter than what keeps
  // a slow phone from answering a tap.
  if (serverState) await new Promise((resolve) => setTimeout(resolve))

  const app = (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>
  )
  if (serverState) {
    // Takes over the server's HTML as it is (docs/decisions/023 and 024).
    takeOver(() => hydrateRoot(container, app))
  } else {
    markPageLive()
    container.replaceChildren()
    createRoot(container).render(app)
  }
}

void start()
