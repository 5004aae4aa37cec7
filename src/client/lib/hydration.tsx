import { useEffect, useState, type ReactNode } from 'react'

/** Whether the browser has taken the page over; never on the server. */
let pageIsLive = false

/** main.tsx: the browser has taken over the server's HTML, or is about to draw the page itself. */
export function markPageLive() {
  pageIsLive = true
}

/**
 * False on the server and while the browser takes over the server's HTML (hydration), true
 * afterwards and in a page the browser draws itself. A part drawn during hydration turns true
 * in its first effect, so what it drew first matches the server's HTML.
 */
export function useIsHydrated() {
  const [isHydrated, setIsHydrated] = useState(pageIsLive)
  useEffect(() => {
    // The one render after taking over that the server's HTML could not include: on purpose.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setIsHydrated(true)
  }, [])
  return isHydrated
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
