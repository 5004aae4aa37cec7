import type { QueryClient } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { data, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router'
import { isPageId, pages, type PageRoute } from '#contract/pages'
import {
  RootErrorBoundary,
  RouteErrorBoundary,
} from '#client/components/errors/route-error-boundary'
import { hasSeenSplash } from '#client/features/home/lib/splash-seen'
import { setUnauthorizedHandler } from '#client/lib/api-client'
import { handleSessionExpired, loadUser } from '#client/lib/auth'
import { AppLoading, RootLayout } from './routes/root'

/** Who may open a route (spec 2 §2, route table). Everyone else is sent to /home. */
type Access = 'everyone' | 'visitors' | 'members' | 'superusers'

// Every route checks the session in its own loader: React Router does not rerun a parent's
// loader on each navigation, and the spec wants the user known before every one.
// An address whose id cannot be one ('/podclubs/abc') is a page that does not exist: the route's
// error boundary shows the not-found page.
function guard(queryClient: QueryClient, access: Access, idParams: PageRoute['idParams'] = []) {
  return async ({ params }: LoaderFunctionArgs) => {
    const user = await loadUser(queryClient)
    if (access === 'visitors' && user) throw redirect('/home')
    if (access === 'members' && !user) throw redirect('/home')
    if (access === 'superusers' && !user?.is_superuser) throw redirect('/home')
    const isBadId = (name: string) => params[name] !== undefined && !isPageId(params[name])
    if (idParams.some(isBadId)) throw data(null, { status: 404, statusText: 'Not Found' })
    return null
  }
}

// Screens are separate chunks, so the first load of / carries only the shell and home.
function screen(load: () => Promise<{ default: ComponentType }>) {
  return async () => ({ Component: (await load()).default })
}

export type HomeLoaderData = { skipSplash: boolean }

export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  const route = (
    path: string,
    access: Access,
    load: () => Promise<{ default: ComponentType }>,
    idParams?: PageRoute['idParams'],
  ): RouteObject => ({
    path,
    loader: guard(queryClient, access, idParams),
    // Only the query or hash changed (the control panel's ?section=): same screen, same session,
    // so the guard does not run again and the change shows at once.
    shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
      currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
    lazy: screen(load),
  })

  const loadHome = () => import('./routes/home')
  const homeLoader = async ({ request }: LoaderFunctionArgs): Promise<HomeLoaderData> => {
    await loadUser(queryClient)
    const url = new URL(request.url)
    // The splash plays only on '/', not with ?skipSplash=true, and once a visit.
    return {
      skipSplash:
        url.pathname !== '/' || url.searchParams.get('skipSplash') === 'true' || hasSeenSplash(),
    }
  }

  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: AppLoading,
      children: [
        {
          // Inside the shell, so a broken screen keeps the header and footer around its error.
          ErrorBoundary: RouteErrorBoundary,
          children: [
            { path: pages.root.path, loader: homeLoader, lazy: screen(loadHome) },
            { path: pages.home.path, loader: homeLoader, lazy: screen(loadHome) },
            route(pages.profile.path, 'members', () => import('./routes/profile')),
            route(pages.propose.path, 'members', () => import('./routes/propose')),
            route(
              pages.podclub.path,
              'everyone',
              () => import('./routes/podclub'),
              pages.podclub.idParams,
            ),
            route(pages.about.path, 'everyone', () => import('./routes/about')),
            route(pages.login.path, 'visitors', () => import('./routes/login')),
            route(pages.register.path, 'visitors', () => import('./routes/register')),
            route(pages.forgotPassword.path, 'visitors', () => import('./routes/forgot-password')),
            route(pages.passwordReset.path, 'visitors', () => import('./routes/password-reset')),
            route(pages.waitlist.path, 'everyone', () => import('./routes/waitlist')),
            route(pages.confirmEmail.path, 'everyone', () => import('./routes/confirm-email')),
            route(pages.qrInvite.path, 'everyone', () => import('./routes/qr-invite')),
            route(
              pages.polls.path,
              'everyone',
              () => import('./routes/polls'),
              pages.polls.idParams,
            ),
            route(pages.controlPanel.path, 'superusers', () => import('./routes/control-panel')),
            route(pages.unsubscribe.path, 'everyone', () => import('./routes/unsubscribe')),
            route('*', 'everyone', () => import('./routes/not-found')),
          ],
        },
      ],
    },
  ]
}

type Navigator = {
  navigate: (to: string) => Promise<void>
  state: { location: { pathname: string; search: string } }
}

/**
 * Wires the api-client's global 401 rule to this app's cache, router and toasts. Returns the
 * function that unplugs it.
 */
export function connectSessionExpiry(queryClient: QueryClient, router: Navigator) {
  return setUnauthorizedHandler(() => {
    const { pathname, search } = router.state.location
    handleSessionExpired(queryClient, (to) => router.navigate(to), `${pathname}${search}`)
  })
}
