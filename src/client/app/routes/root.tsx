import { useEffect, useRef } from 'react'
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router'
import { AppLayout, MAIN_CONTENT_ID } from '#client/components/layouts/app-layout'
import { useLogout } from '#client/features/auth/api/logout'
import { useLiveUpdates } from '#client/features/live/use-live-updates'
import { useUser } from '#client/lib/auth'
import { legacySignupPath } from '#client/lib/legacy-links'
import { scrollForNavigation } from '#client/lib/scroll'

// Not lazy like the screens: every page needs the shell, so it ships in the entry chunk.

/** The page shell: header, footer and what every navigation does. */
export function RootLayout() {
  const location = useLocation()
  const navigation = useNavigation()
  const user = useUser()
  const logout = useLogout()
  useLiveUpdates(user?.username ?? null)

  useScrollOnNavigation(location.key, location.hash)
  useEffect(markPageReady, [])
  useFocusMainOnNavigation(location.pathname)

  const legacyPath = legacySignupPath(location.hash)
  if (legacyPath) return <Navigate to={legacyPath} replace />

  return (
    <AppLayout
      user={user}
      onLogout={() => logout.mutate()}
      isLoggingOut={logout.isPending}
      isNavigating={navigation.state !== 'idle'}
    >
      <Outlet />
    </AppLayout>
  )
}

/**
 * Each navigation scrolls to the top or to its anchor (spec 2 §2); the page's first load does not:
 * the browser has placed it already, and a server-rendered page may have been scrolled before it
 * hydrated, which must not jump back.
 */
function useScrollOnNavigation(key: string, hash: string) {
  const isFirstLoad = useRef(true)
  useEffect(() => {
    if (isFirstLoad.current) {
      isFirstLoad.current = false
      return
    }
    return scrollForNavigation(hash)
  }, [key, hash])
}

// Screen-reader users otherwise stay on the link they followed, now gone, and hear nothing of
// the new page. A screen that already put focus in its content (an autofocused field) keeps it.
function useFocusMainOnNavigation(pathname: string) {
  const previous = useRef(pathname)
  useEffect(() => {
    if (previous.current === pathname) return
    previous.current = pathname
    const main = document.getElementById(MAIN_CONTENT_ID)
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true })
  }, [pathname])
}

/**
 * `<html data-ready>` once the page runs: rendered by the browser, or the server's HTML hydrated.
 * A press before it is held and replayed (lib/early-taps.ts); the feed's cards may still be
 * hydrating, and React hydrates one at once when it is pressed.
 */
function markPageReady() {
  document.documentElement.dataset.ready = ''
}

/** Shown while the first screen and the session load. */
export function AppLoading() {
  return (
    <div className="grid min-h-dvh place-items-center" aria-busy="true">
      <p role="status" className="font-mono text-sm text-ink-muted">
        loading…
      </p>
    </div>
  )
}
