import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
// From 'react-router', not 'react-router/dom' as main.tsx does: under Vitest the two entries
// resolve to separate module formats whose router contexts don't meet.
import { createMemoryRouter, RouterProvider } from 'react-router'
import { onTestFinished } from 'vitest'
import {
  validateInviteCodeResponseSchema,
  whoamiResponseSchema,
  type SessionUser,
} from '#contract/auth'
import { okSchema } from '#contract/common'
import { getPublicConfigResponseSchema, type PublicConfig } from '#contract/config'
import {
  getRandomPastPodclubResponseSchema,
  getSplashResponseSchema,
  listPodclubsResponseSchema,
} from '#contract/podclubs'
import { AppProvider } from '#client/app/provider'
import { connectSessionExpiry, createAppRoutes } from '#client/app/router'
import { createQueryClient } from '#client/lib/query-client'
import { whoamiOf } from './fixtures'
import { mockApi, reply, type Handlers } from './mock-api'

type RenderOptions = {
  /** Where the app starts, e.g. '/login' or '/#/signup/CODE'. */
  path?: string
  /** Who GET /whoami/ says is logged in; a visitor when left out. */
  currentUser?: SessionUser | null
  /** Request handlers added to (or replacing) the default whoami one. */
  handlers?: Handlers
}

export const testPublicConfig: PublicConfig = {
  app_url: 'http://podclub.test',
  club_invite_code: 'clubcode',
  invite_link: 'http://podclub.test/register/clubcode',
  contact_email: 'hello@podclub.test',
}

/**
 * Calls public screens make as they open (the settings of the about and QR pages, the check of
 * an invite code or reset link from the URL), answered as a working server would. A test about
 * those screens passes its own handlers.
 */
export const publicScreenHandlers: Handlers = {
  getPublicConfig: () => reply(getPublicConfigResponseSchema, { data: testPublicConfig }),
  validateInviteCode: () => reply(validateInviteCodeResponseSchema, { data: { valid: true } }),
  validateResetToken: () => reply(okSchema, { data: { ok: true } }),
}

export function createTestQueryClient() {
  return createQueryClient({
    // Retries would only slow a failing test down; the cache must outlive the render.
    queries: { retry: false, gcTime: Infinity },
    mutations: { retry: false },
  })
}

/** What the home screen asks for, answered quietly: most journeys end up on /home. */
export const homeHandlers: Handlers = {
  listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [] }),
  getSplashStats: () =>
    reply(getSplashResponseSchema, {
      data: { member_count: 0, completed_podclub_count: 0, cities_count: 0 },
    }),
  getRandomPastPodclub: () => reply(getRandomPastPodclubResponseSchema, { data: null }),
}

/** Renders the whole app (routes, guards, layout, toasts) at `path`, with fetch mocked. */
export function renderWithProviders({
  path = '/',
  currentUser = null,
  handlers,
}: RenderOptions = {}) {
  const api = mockApi({
    getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(currentUser) }),
    ...publicScreenHandlers,
    ...homeHandlers,
    ...handlers,
  })
  const queryClient = createTestQueryClient()
  const router = createMemoryRouter(createAppRoutes(queryClient, 'browser'), {
    initialEntries: [path],
  })
  onTestFinished(connectSessionExpiry(queryClient, router))
  onTestFinished(() => router.dispose())
  const user = userEvent.setup()
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return { ...view, api, queryClient, router, user }
}

/** Waits for the screen's h1, i.e. for guards, lazy chunks and the session to settle. */
export function findScreenTitle(name?: string | RegExp) {
  return screen.findByRole('heading', { level: 1, ...(name ? { name } : {}) })
}

/** The toasts on screen: Radix lists them in the 'Notifications' region. */
export function queryToasts() {
  const region = screen.queryByRole('region', { name: /notifications/i })
  return region ? within(region).queryAllByRole('listitem') : []
}

/**
 * The newest toast, once one shows: the toaster draws in a render of its own, which may come
 * after the screen's own change that a test waited for.
 */
export async function findToast(): Promise<HTMLElement> {
  return waitFor(() => {
    const [toast] = queryToasts()
    if (!toast) throw new Error('no toast yet')
    return toast
  })
}
