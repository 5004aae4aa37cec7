import { Suspense, useEffect, useState, type ReactNode } from 'react'

/** Whether the browser has taken the page over; never on the server. */
let pageIsLive = false
/** Whether the browser is taking over the server's HTML right now. */
let takingOver = false

/** main.tsx: the browser is about to draw the page itself. */
export function markPageLive() {
  pageIsLive = true
}

/** main.tsx: takes over the server's HTML with `hydrate`, then the page is live. */
export function takeOver(hydrate: () => void) {
  takingOver = true
  try {
    hydrate()
  } finally {
    takingOver = false
    markPageLive()
  }
}

/** Back to before any page was taken over: for tests that take one over. */
export function resetTakeOverForTests() {
  pageIsLive = false
  takingOver = false
  turnsWaiting = 0
}

/** Each call resolves one task after the one before: parts taken over one task each. */
let lastTurn: Promise<void> = Promise.resolve()
function nextTurn(): Promise<void> {
  lastTurn = lastTurn.then(() => new Promise<void>((resolve) => setTimeout(resolve)))
  return lastTurn
}

/**
 * Turns handed out whose part has not been drawn again yet. A part drawn in its turn is still
 * being taken over: what it draws first must match the server's HTML (useIsHydrated).
 */
let turnsWaiting = 0

function handOutTurn(): Promise<void> {
  turnsWaiting += 1
  const turn = nextTurn()
  // The part is drawn again as the turn comes (within that task): count it done in the next.
  void turn.then(() =>
    setTimeout(() => {
      turnsWaiting -= 1
    }),
  )
  return turn
}

/**
 * Suspends its children while the page is taken over, until their turn. Preact keeps the
 * server's HTML of a part that suspends while it takes a page over, and takes it over with a
 * new instance once the promise resolves.
 */
function WaitForTurn({ children }: { children: ReactNode }) {
  const [turn] = useState(() => (takingOver ? handOutTurn() : null))
  if (turn) throw turn
  return children
}

/**
 * While the browser takes over the server's HTML, takes `children` over in a task of its own
 * afterwards, their HTML left as the server drew it meanwhile: a long page (the home feed) is
 * taken over in slices a phone can answer a tap between, instead of one long task. Elsewhere
 * (the server, a page the browser draws, later renders) it draws its children at once.
 */
export function TakeOverInTurn({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <WaitForTurn>{children}</WaitForTurn>
    </Suspense>
  )
}

/**
 * False on the server and while the browser takes over the server's HTML (hydration), true
 * afterwards and in a page the browser draws itself. A part drawn during hydration turns true
 * in its first effect, so what it drew first matches the server's HTML.
 */
export function useIsHydrated() {
  const [isHydrated, setIsHydrated] = useState(pageIsLive && turnsWaiting === 0)
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
