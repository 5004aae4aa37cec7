import { Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react'

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
  partsWaiting.clear()
  allTakenOver = Promise.resolve()
}

/** Each call resolves one task after the one before: parts taken over one task each. */
let lastTurn: Promise<void> = Promise.resolve()
function nextTurn(): Promise<void> {
  lastTurn = lastTurn.then(() => new Promise<void>((resolve) => setTimeout(resolve)))
  return lastTurn
}

/** A part of the page taken over in a turn of its own (TakeOverInTurn). */
type Part = { turn: Promise<void>; hasTurned: boolean; done: () => void }

/**
 * Parts handed a turn that have not been taken over yet: drawn again, their effects run. What a
 * part draws in its turn is still taken over, so must match the server's HTML (useIsHydrated).
 */
const partsWaiting = new Set<Part>()
let allTakenOver: Promise<void> = Promise.resolve()
let everyPartDone = () => {}

function handOutTurn(): Part {
  if (partsWaiting.size === 0) {
    allTakenOver = new Promise<void>((resolve) => {
      everyPartDone = resolve
    })
  }
  const part: Part = {
    turn: nextTurn(),
    hasTurned: false,
    // Also when the part goes before its turn (the member left the page): nothing to wait for.
    done: () => {
      if (partsWaiting.delete(part) && partsWaiting.size === 0) everyPartDone()
    },
  }
  void part.turn.then(() => {
    part.hasTurned = true
  })
  partsWaiting.add(part)
  return part
}

/**
 * Resolves once every part handed a turn while taking the page over works, its effects run and
 * what they changed drawn: the page answers a tap everywhere, not only outside those parts.
 */
export function whenTakenOver(): Promise<void> {
  return allTakenOver.then(() => new Promise<void>((resolve) => setTimeout(resolve)))
}

/**
 * Suspends its children while the page is taken over, until their turn. Preact keeps the
 * server's HTML of a part that suspends while it takes a page over, and takes it over once the
 * promise resolves. Its effect runs after its children's: the part is then taken over.
 */
function WaitForTurn({ part, children }: { part: Part | null; children: ReactNode }) {
  useEffect(() => part?.done(), [part])
  if (part && !part.hasTurned) throw part.turn
  return children
}

/**
 * While the browser takes over the server's HTML, takes `children` over in a task of its own
 * afterwards, their HTML left as the server drew it meanwhile: a long page (the home feed) is
 * taken over in slices a phone can answer a tap between, instead of one long task. Elsewhere
 * (the server, a page the browser draws, later renders) it draws its children at once.
 */
export function TakeOverInTurn({ children }: { children: ReactNode }) {
  // Held outside the Suspense boundary, which may draw its children with new instances.
  const [part] = useState(() => (takingOver ? handOutTurn() : null))
  // Set as the page is drawn, so a part gone at once is let go of too.
  useLayoutEffect(() => () => part?.done(), [part])
  return (
    <Suspense fallback={null}>
      <WaitForTurn part={part}>{children}</WaitForTurn>
    </Suspense>
  )
}

/**
 * False on the server and while the browser takes over the server's HTML (hydration), true
 * afterwards and in a page the browser draws itself. A part drawn during hydration turns true
 * in its first effect, so what it drew first matches the server's HTML.
 */
export function useIsHydrated() {
  const [isHydrated, setIsHydrated] = useState(pageIsLive && partsWaiting.size === 0)
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
