import { useSyncExternalStore, type ReactNode } from 'react'

const subscribeToNothing = () => () => {}

/**
 * False on the server and while the browser takes over the server's HTML (hydration), true
 * afterwards and in a page the browser draws itself.
 */
export function useIsHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  )
}

/**
 * Draws `fallback` in the server's HTML and while the browser takes it over, then `children`. For
 * parts whose code loads apart (React.lazy): the server would leave them for the browser anyway,
 * and taking over a page must not wait for their code.
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
