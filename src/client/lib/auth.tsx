import { apiRoutes } from 'virtual:api-routes'
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import type { SessionUser, Whoami } from '#contract/auth'
import { callApi, SESSION_EXPIRED_MESSAGE } from './api-client'
import { loginPath } from './login-path'
import { toast } from './toast'

/**
 * The session every screen reads: who is logged in, kept in the TanStack Query cache under the
 * one key built by `whoamiQueryOptions()`. It lives in lib/ rather than features/auth because
 * the header, the route guards and most features need it.
 */

export const ANONYMOUS_SESSION: Whoami = { isAuthenticated: false, user: null }

const AUTH_SCOPE = 'auth'

/** Whoami. It also sets the csrftoken cookie, which every later POST needs. */
export function getWhoami(signal?: AbortSignal): Promise<Whoami> {
  return callApi(apiRoutes.getWhoami, { signal })
}

export function whoamiQueryOptions() {
  return queryOptions({
    queryKey: [AUTH_SCOPE, 'whoami'] as const,
    queryFn: ({ signal }) => getWhoami(signal),
    // Login, logout and a 401 update it explicitly, so it rarely needs asking again.
    staleTime: 5 * 60_000,
    // A failed whoami is not an answer, so nothing is cached for it: the next navigation asks
    // again (loadUser), and so does coming back to the tab. Retrying here would only hold up
    // the navigation that waits for it.
    retry: false,
    refetchOnWindowFocus: (query) => query.state.status === 'error',
  })
}

export function userOf(whoami: Whoami | undefined): SessionUser | null {
  return whoami?.isAuthenticated && whoami.user ? whoami.user : null
}

/** The logged-in user, or null for a visitor. */
export function useUser(): SessionUser | null {
  const { data } = useQuery(whoamiQueryOptions())
  return userOf(data)
}

export function useIsSuperuser() {
  return useUser()?.is_superuser === true
}

/**
 * Asks whoami the first time and after a failure; otherwise answers from the cache. Used by the
 * route guards before every navigation. When whoami fails, the page goes on with what it knew:
 * the user it had, or a visitor (spec 2 §4: unauthenticated rather than broken).
 */
export async function loadUser(queryClient: QueryClient) {
  const options = whoamiQueryOptions()
  const lastAskFailed = queryClient.getQueryState(options.queryKey)?.status === 'error'
  try {
    return userOf(
      lastAskFailed
        ? await queryClient.fetchQuery({ ...options, staleTime: 0 })
        : await queryClient.ensureQueryData(options),
    )
  } catch {
    return userOf(queryClient.getQueryData(options.queryKey))
  }
}

// What one user saw (registrations, profile) must not show for the next one. Queries on
// screen stay, marked stale, so an unmounting screen doesn't refetch into a fresh 401.
function forgetUserData(queryClient: QueryClient) {
  const isUserData = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== AUTH_SCOPE
  queryClient.removeQueries({ predicate: (query) => isUserData(query) && !query.isActive() })
  void queryClient.invalidateQueries({ predicate: isUserData, refetchType: 'none' })
}

/** Asks whoami again (after login or signup) and returns the user it names. */
export async function refreshUser(queryClient: QueryClient) {
  const options = whoamiQueryOptions()
  try {
    return userOf(await queryClient.fetchQuery({ ...options, staleTime: 0 }))
  } catch {
    // The query is left failed, so the next navigation asks again.
    return userOf(queryClient.getQueryData(options.queryKey))
  } finally {
    forgetUserData(queryClient)
  }
}

/** Forgets the local user: on logout (even a failed one) and when the session expires. */
export function clearUser(queryClient: QueryClient) {
  void queryClient.cancelQueries({ queryKey: whoamiQueryOptions().queryKey })
  queryClient.setQueryData(whoamiQueryOptions().queryKey, ANONYMOUS_SESSION)
  forgetUserData(queryClient)
}

/**
 * The global 401 rule: log out locally, go Home, say why, once, and offer the way back in to
 * `from`, the page the member was on. The message outranks the error toast of the action that
 * met the 401 ('Registration failed'), so every screen gets this without handling it.
 */
export function handleSessionExpired(
  queryClient: QueryClient,
  navigate: (to: string) => unknown,
  from?: string,
) {
  clearUser(queryClient)
  void navigate('/home')
  const href = loginPath(from)
  toast({
    title: SESSION_EXPIRED_MESSAGE,
    variant: 'destructive',
    supersedesErrors: true,
    action: {
      label: '[ login ]',
      href,
      altText: 'Log in again from the login screen.',
      onFollow: () => void navigate(href),
    },
  })
}
