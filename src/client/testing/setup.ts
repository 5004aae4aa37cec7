import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { loadToaster } from '#client/app/provider'
import { setUnauthorizedHandler } from '#client/lib/api-client'
import { resetToasts } from '#client/lib/toast'
import { recordConsoleError, takeUnexpectedConsoleErrors } from './console'

// jsdom lacks what Radix's menus and our scrolling touch; without these stand-ins jsdom logs
// "Not implemented" errors or throws.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub
window.scrollTo = () => {}
Element.prototype.scrollIntoView ??= function scrollIntoView() {}
Element.prototype.hasPointerCapture ??= () => false
Element.prototype.releasePointerCapture ??= () => {}
Element.prototype.setPointerCapture ??= () => {}
// No canvas in jsdom: a canvas simply doesn't draw.
HTMLCanvasElement.prototype.getContext = () => null

// A screen loaded apart (the member's cards, the control panel) arrives after an import that can
// take seconds while a 2-core machine runs the other suites, and a query by role and name over a
// large table is slow in jsdom: `findBy*` waits up to 10 s (the control panel's file took 18.7 s in
// one CI run, 4.0 s alone, and one of its tables 5 s to be found), within the 15 s a test has.
configure({ asyncUtilTimeout: 10_000 })

// The page loads its toaster with the first message; tests have it at hand, so a toast shows in
// the render that sent it.
beforeAll(loadToaster)

function describe(value: unknown) {
  if (value instanceof Error) return value.stack ?? value.message
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

// Enough of console's printf rules ('%s') to make React's messages readable in a failure.
function format(first: unknown, ...rest: unknown[]) {
  const args = [...rest]
  const head =
    typeof first === 'string'
      ? first.replace(/%[sdifoOc]/g, (token) => (args.length ? describe(args.shift()) : token))
      : describe(first)
  return [head, ...args.map(describe)].join(' ')
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((first?: unknown, ...args: unknown[]) => {
    recordConsoleError(format(first, ...args))
  })
})

afterEach(() => {
  cleanup()
  resetToasts()
  setUnauthorizedHandler(null)
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
  window.scrollY = 0
  window.sessionStorage.clear()
  window.localStorage.clear()
  const errors = takeUnexpectedConsoleErrors()
  if (errors.length > 0) {
    throw new Error(`Unexpected console.error:\n${errors.join('\n---\n')}`)
  }
})
