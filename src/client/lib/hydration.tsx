import { useSyncExternalStore, type ReactNode } from 'react'

const subscribeToNothing = () => () => {}

/**
 * False while React hydrates the server's HTML (and on the server), true afterwards and in a
 * page the browser renders itself: React reads the server snapshot during hydration, so what a
 * component renders first still matches the server's HTML, then renders again with the client's.
 */
export function useIsHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
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
