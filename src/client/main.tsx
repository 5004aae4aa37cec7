// First: zod must know it may not eval before any screen's schemas load.
import './lib/zod-jitless'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter } from 'react-router'
import { RouterProvider } from 'react-router/dom'
import { AppProvider } from './app/provider'
import { connectSessionExpiry, createAppRoutes } from './app/router'
import { legacySignupPath } from './lib/legacy-links'
import { createQueryClient } from './lib/query-client'
import './styles.css'

// Rewritten before the router starts, so an old invite link loads the register screen
// directly instead of flashing Home first. The root layout handles in-app hash changes.
const legacyPath = legacySignupPath(window.location.hash)
if (legacyPath) window.history.replaceState(null, '', legacyPath)

const queryClient = createQueryClient()
const router = createBrowserRouter(createAppRoutes(queryClient))
connectSessionExpiry(queryClient, router)

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

createRoot(container).render(
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
)
