import { useEffect, useSyncExternalStore, type ReactNode } from 'react'
import { nextTask } from './next-task'

/**
 * Whether the page's first render in this browser is done. True in a page the browser renders
 * itself; start-page.tsx sets it false before React hydrates the server's HTML, and
 * `<HydrationEnds>` sets it true again in a task after React has committed that HTML.
 */
let isPageHydrated = true
const listeners = new Set<() => void>()

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Called before `hydrateRoot`: parts that wait for hydration wait until `<HydrationEnds>`. */
export function hydrationBegins() {
  isPageHydrated = false
}

function hydrationEnded() {
  if (isPageHydrated) return
  isPageHydrated = true
  for (const listener of listeners) listener()
}

/** Calls `then` once the page is marked hydrated (at once in a page the browser renders itself). */
export function whenHydrated(then: () => void) {
  if (isPageHydrated) return then()
  const listener = () => {
    listeners.delete(listener)
    then()
  }
  listeners.add(listener)
}

/**
 * Wraps a hydrated page's whole tree, in the browser only: it adds no element, so the tree's
 * shape (and useId's ids) stays the server's. Its effect runs once React has committed the
 * server's HTML, after every effect inside, and marks the page hydrated in a task of its own:
 * what renders again because of it (useIsHydrated) is not added to the task that ran the
 * commit's effects, which on a slow phone is long enough already.
 */
export function HydrationEnds({ children }: { children: ReactNode }) {
  useEffect(() => {
    let isMounted = true
    void nextTask().then(() => {
      if (isMounted) hydrationEnded()
    })
    return () => {
      isMounted = false
    }
  }, [])
  return children
}

/**
 * False while React hydrates the server's HTML (and on the server), true afterwards and in a
 * page the browser renders itself. React reads the server snapshot while it hydrates a part, so
 * what a component renders first matches the server's HTML, even in a part that hydrates after
 * the rest; it renders again once the page is marked hydrated.
 */
export function useIsHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => isPageHydrated,
    () => false,
  )
}

/**
 * Renders `fallback` on the server and while the page hydrates, then `children`. For parts whose
 * code loads apart (React.lazy): hydrating a page must not wait for their code.
 */
export function AfterHydration({
  fallback,
  children,
}: {
  fallback: ReactNode
  children: ReactNode
}) {
  return useIsHydrated() ? children : fallback
}
