import type { QueryClient } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { data, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router'
import { isPageId, pages, type PageRoute } from '#contract/pages'
import { NotFoundPage } from '#client/components/errors/not-found-page'
import {
  RootErrorBoundary,
  RouteErrorBoundary,
} from '#client/components/errors/route-error-boundary'
import { upcomingPodclubsQueryOptions } from '#client/features/podclubs/api/get-upcoming-podclubs'
import { hasSeenSplash } from '#client/features/home/lib/splash-seen'
import { newSeed } from '#client/lib/seeded-random'
import { isNotFoundError, setUnauthorizedHandler } from '#client/lib/api-client'
import { handleSessionExpired, loadUser } from '#client/lib/auth'
import { loginPath } from '#client/lib/login-path'
import { PODCLUB_GATE, PODCLUB_GATE_LOGIN } from '#client/features/podclub-detail/lib/gate'
import type { Refusal } from '#client/components/errors/route-error-boundary'
import { AppLoading, RootLayout } from './routes/root'

/** Who may open a route (spec 2 §2, route table). Everyone else is sent to /home. */
type Access = 'everyone' | 'visitors' | 'members' | 'superusers'

/**
 * What a screen reads for its first paint, asked for with the session when the server renders the
 * page (entry-server.tsx), so its HTML holds the content. The browser does not ask ahead: the
 * screen asks when it mounts, as it always does, and a query the server answered is already in
 * the cache it hands over.
 */
type ScreenData = (
  queryClient: QueryClient,
  params: LoaderFunctionArgs['params'],
) => Promise<unknown>

// Every route checks the session in its own loader: React Router does not rerun a parent's
// loader on each navigation, and the spec wants the user known before every one.
// An address whose id cannot be one ('/podclubs/abc') is a page that does not exist: the route's
// error boundary shows the not-found page.
function guard(
  queryClient: QueryClient,
  access: Access,
  idParams: PageRoute['idParams'] = [],
  screenData?: ScreenData | false,
) {
  return async ({ params }: LoaderFunctionArgs) => {
    const user = await loadUser(queryClient)
    if (access === 'visitors' && user) throw redirect('/home')
    if (access === 'members' && !user) throw redirect('/home')
    if (access === 'superusers' && !user?.is_superuser) throw redirect('/home')
    const isBadId = (name: string) => params[name] !== undefined && !isPageId(params[name])
    if (idParams.some(isBadId)) throw data(null, { status: 404, statusText: 'Not Found' })
    if (screenData) await screenData(queryClient, params)
    return null
  }
}

/**
 * Every screen's module by its name (`routes/<name>.tsx`): each is a chunk of its own, so the
 * first load of / carries only the shell and home. The name also finds the chunk's files in the
 * build's manifest, which the server lists in a page it renders for the browser to fetch with
 * the entry (entry-server.tsx).
 */
const screenModules = import.meta.glob<{ default: ComponentType }>([
  './routes/*.tsx',
  '!./routes/root.tsx',
  '!./routes/*.test.tsx',
])

/** A route's screen, `routes/<name>.tsx`: loaded when the route is, and named in its handle. */
function screen(name: string, serverRendered: boolean) {
  const load = screenModules[`./routes/${name}.tsx`]
  if (!load) throw new Error(`no screen module routes/${name}.tsx`)
  return {
    lazy: async () => ({ Component: (await load()).default }),
    handle: { serverRendered, asksViewerFirst: true, screen: name } satisfies RouteHandle,
  }
}

/** What a route declares besides its path, access and screen. */
type RouteOptions = {
  idParams?: PageRoute['idParams']
  /** The queries its first paint reads (see ScreenData). */
  screenData?: ScreenData
  /**
   * The server renders its HTML (entry-server.tsx), so its content shows before the page's code
   * has loaded. Only for screens whose first paint depends on nothing but the address, the
   * session and the API: not on what this browser stored, nor on a step in progress.
   */
  serverRendered?: boolean
}

/** A route's `handle`: what the server reads to decide whether it renders the page. */
export type RouteHandle = {
  serverRendered: boolean
  /** Its screen's module (`routes/<name>.tsx`), if it has one of its own. */
  screen?: string
  /**
   * Its loader asks who the viewer is before anything else (`guard`, the home loader): the
   * server may ask first and keep the page for every viewer given the same answer
   * (entry-server.tsx, `asksViewerFirst`). The not-found page of an address that is no page
   * asks nothing.
   */
  asksViewerFirst: boolean
}

// Read by the server before it renders (createAppRoutes' `side`); the browser's screens ask for the
// same queries when they mount.
const publicConfig: ScreenData = async (queryClient) => {
  const { publicConfigQueryOptions } = await import('#client/features/config/api/get-public-config')
  await queryClient.prefetchQuery(publicConfigQueryOptions())
}
const feed: ScreenData = async (queryClient, params) => {
  // The cards' seat buttons read the config (the share link's address).
  await Promise.all([
    queryClient.prefetchQuery(upcomingPodclubsQueryOptions()),
    publicConfig(queryClient, params),
  ])
}
const podclubDetail: ScreenData = async (queryClient, params) => {
  const { podclubDetailQueryOptions } =
    await import('#client/features/podclub-detail/api/get-podclub-detail')
  const [detail] = await Promise.allSettled([
    queryClient.fetchQuery(podclubDetailQueryOptions(params.id ?? '')),
    publicConfig(queryClient, params),
  ])
  // A podclub that does not exist: the not-found page, answered with 404.
  if (detail.status === 'rejected' && isNotFoundError(detail.reason)) {
    queryClient.removeQueries({ queryKey: podclubDetailQueryOptions(params.id ?? '').queryKey })
    throw data(null, { status: 404, statusText: 'Not Found' })
  }
  // A completed podclub whose discussion the viewer may not read (spec 2 §4, the gate): a
  // visitor is asked to log in and come back (401); a member who did not attend is told so and
  // goes home (403). The page says it without scripts; with them it toasts and moves on.
  const podclub = detail.status === 'fulfilled' ? detail.value : undefined
  if (podclub?.status === 'completed' && podclub.hindsights === undefined) {
    const isVisitor = !(await loadUser(queryClient))
    const gate = isVisitor ? PODCLUB_GATE_LOGIN : PODCLUB_GATE
    const refusal: Refusal = {
      description: gate.description,
      to: isVisitor ? loginPath(`/podclubs/${podclub.id}`) : pages.home.path,
    }
    throw data(refusal, { status: isVisitor ? 401 : 403, statusText: gate.title })
  }
}

const profile: ScreenData = async (queryClient) => {
  const { profileQueryOptions } = await import('#client/features/profile/api/get-profile')
  await queryClient.prefetchQuery(profileQueryOptions())
}

export type HomeLoaderData = {
  skipSplash: boolean
  /** This visit's random touches (seeded-random.ts): the same when the browser hydrates the page. */
  seed: number
}

/**
 * Where the routes run: the server reads each screen's data before it renders; the browser does
 * not ask ahead (a screen asks when it mounts, and hydrates from what the server handed over).
 */
export type RouteSide = 'server' | 'browser'

export type AppRoutesOptions = {
  /** Draws the seed of a page's random touches (the server's render learns that it drew one). */
  drawSeed?: () => number
}

export function createAppRoutes(
  queryClient: QueryClient,
  side: RouteSide,
  { drawSeed = newSeed }: AppRoutesOptions = {},
): RouteObject[] {
  const prefetch = side === 'server'
  const route = (
    path: string,
    access: Access,
    name: string,
    { idParams, screenData, serverRendered = false }: RouteOptions = {},
  ): RouteObject => ({
    path,
    loader: guard(queryClient, access, idParams, prefetch && screenData),
    ...screen(name, serverRendered),
    // Only the query or hash changed (the control panel's ?section=): same screen, same session,
    // so the guard does not run again and the change shows at once.
    shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
      currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
  })

  const homeLoader = async ({ request, params }: LoaderFunctionArgs): Promise<HomeLoaderData> => {
    const user = await loadUser(queryClient)
    if (prefetch) await feed(queryClient, params)
    const url = new URL(request.url)
    // The splash plays only on '/', not with ?skipSplash=true, and once a visit.
    return {
      // Only a visitor's feed has random touches (the join card): a member's page draws none, so
      // the server keeps one render of it, not one per seed.
      seed: user ? 0 : drawSeed(),
      skipSplash:
        url.pathname !== '/' || url.searchParams.get('skipSplash') === 'true' || hasSeenSplash(),
    }
  }

  const homeRoute = (path: string): RouteObject => ({
    path,
    loader: homeLoader,
    ...screen('home', true),
  })

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
            // '/' opens with the splash, which plays once a visit (this browser's session
            // storage): the server renders it, and a tab that has seen it hides it at once.
            homeRoute(pages.root.path),
            homeRoute(pages.home.path),
            route(pages.profile.path, 'members', 'profile', {
              screenData: profile,
              serverRendered: true,
            }),
            route(pages.propose.path, 'members', 'propose'),
            route(pages.podclub.path, 'everyone', 'podclub', {
              idParams: pages.podclub.idParams,
              screenData: podclubDetail,
              serverRendered: true,
            }),
            route(pages.about.path, 'everyone', 'about', {
              screenData: publicConfig,
              serverRendered: true,
            }),
            route(pages.login.path, 'visitors', 'login', {
              serverRendered: true,
            }),
            route(pages.register.path, 'visitors', 'register'),
            route(pages.forgotPassword.path, 'visitors', 'forgot-password', {
              serverRendered: true,
            }),
            route(pages.passwordReset.path, 'visitors', 'password-reset'),
            route(pages.waitlist.path, 'everyone', 'waitlist'),
            route(pages.confirmEmail.path, 'everyone', 'confirm-email'),
            route(pages.qrInvite.path, 'everyone', 'qr-invite'),
            route(pages.polls.path, 'everyone', 'polls', {
              idParams: pages.polls.idParams,
            }),
            route(pages.controlPanel.path, 'superusers', 'control-panel'),
            route(pages.unsubscribe.path, 'everyone', 'unsubscribe'),
            {
              // An address that is no page: a 404 answer, which the boundary above shows as the
              // not-found page, on the server and in the browser alike.
              path: '*',
              loader: () => {
                throw data(null, { status: 404, statusText: 'Not Found' })
              },
              Component: NotFoundPage,
              handle: { serverRendered: true, asksViewerFirst: false } satisfies RouteHandle,
            },
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
