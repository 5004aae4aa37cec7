/**
 * Taps that come before the page's code runs (docs/decisions/027). A server-rendered page shows
 * its buttons long before its JavaScript has loaded on a slow phone; a press on one then would do
 * nothing, and a form's submit would send its fields the browser's own way. `captureEarlyTaps`
 * runs inline in the document's head (vite.config.ts puts it there), from the first paint: it
 * holds every press of a button and every submit in #root, marks the button as waiting, and hands
 * them to start-page.tsx, which replays them once React listens (`releaseEarlyTaps`). React itself takes
 * care of what comes after: a press on a part not yet hydrated hydrates that part at once.
 */

/** A press held until the page runs: the button pressed, or the form sent (with its submitter). */
export type EarlyTap =
  | { kind: 'press'; button: HTMLElement }
  | { kind: 'submit'; form: HTMLFormElement; submitter: HTMLElement | null }

export type EarlyTaps = {
  /** Stops holding taps and hands over those held, oldest first. */
  release: () => EarlyTap[]
}

declare global {
  interface Window {
    podclubEarlyTaps?: EarlyTaps
  }
}

/** The attribute a held button carries until its press is replayed: the styles show it waiting. */
export const WAITING_ATTRIBUTE = 'data-tap-waiting'

/**
 * Bundled on its own into the page's head (vite.config.ts, `earlyTaps`): it uses only what every
 * browser the club supports has.
 */
export function captureEarlyTaps() {
  const taps: EarlyTap[] = []
  const waiting = WAITING_ATTRIBUTE
  const root = () => document.getElementById('root')
  const hold = (event: Event) => {
    event.preventDefault()
    event.stopImmediatePropagation()
  }
  const markWaiting = (element: HTMLElement | null) => {
    if (!element) return
    element.setAttribute(waiting, '')
    element.setAttribute('aria-busy', 'true')
  }
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null
    const button = target?.closest<HTMLElement>('button, input[type="submit"]')
    if (!button || !root()?.contains(button) || button.matches(':disabled')) return
    hold(event)
    if (button.hasAttribute(waiting)) return
    markWaiting(button)
    taps.push({ kind: 'press', button })
  }
  // A submit that no press started: Enter in a field.
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null
    if (!form || !root()?.contains(form)) return
    hold(event)
    const submitter = event.submitter instanceof HTMLElement ? event.submitter : null
    if (taps.some((tap) => tap.kind === 'submit' && tap.form === form)) return
    markWaiting(submitter ?? form.querySelector<HTMLElement>('[type="submit"]'))
    taps.push({ kind: 'submit', form, submitter })
  }
  window.addEventListener('click', onClick, true)
  window.addEventListener('submit', onSubmit, true)
  window.podclubEarlyTaps = {
    release() {
      window.removeEventListener('click', onClick, true)
      window.removeEventListener('submit', onSubmit, true)
      return taps.splice(0)
    },
  }
}

function unmark(element: Element | null | undefined) {
  element?.removeAttribute(WAITING_ATTRIBUTE)
  element?.removeAttribute('aria-busy')
}

/**
 * Stops holding taps and returns a function that replays those held: call it once React listens
 * on the page (after `hydrateRoot`). A press on a button the page no longer shows is dropped.
 */
export function releaseEarlyTaps(): () => void {
  const taps = window.podclubEarlyTaps?.release() ?? []
  delete window.podclubEarlyTaps
  return () => {
    for (const tap of taps) {
      if (tap.kind === 'press') {
        unmark(tap.button)
        if (tap.button.isConnected) tap.button.click()
      } else {
        unmark(tap.submitter ?? tap.form.querySelector('[type="submit"]'))
        if (tap.form.isConnected) tap.form.requestSubmit(tap.submitter)
      }
    }
  }
}
