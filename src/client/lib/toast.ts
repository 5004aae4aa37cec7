import { useSyncExternalStore } from 'react'

/**
 * A tiny store behind the imperative `toast()`, so code outside React (the api-client's 401
 * handler, mutation callbacks) can show a message. `<Toaster />` renders what it holds.
 */

export type ToastVariant = 'default' | 'destructive'

/** A link offered with the message, such as the way back in after a session ended. */
export type ToastAction = {
  label: string
  href: string
  /** What a screen reader offers instead when the toast has gone (Radix asks for it). */
  altText: string
  /** Runs on a click instead of following `href` the browser's way (the router's navigation). */
  onFollow?: () => void
}

export type ToastInput = {
  title: string
  description?: string
  variant?: ToastVariant
  action?: ToastAction
  /**
   * The message the failures that follow it stem from (the session ended): while it is open, an
   * error toast does not replace it, and the same message is not shown a second time. It goes
   * like any other: after its time, by hand, or when its action is followed.
   */
  supersedesErrors?: boolean
}

export type ToastItem = ToastInput & { id: string; open: boolean }

/** One toast at a time: a newer message replaces the older one instead of stacking. */
export const TOAST_LIMIT = 1
export const TOAST_DURATION_MS = 5000
export const TOAST_SWIPE_THRESHOLD = 50
// Long enough for the closing animation to finish before the element leaves the DOM.
const REMOVE_DELAY_MS = 300

let toasts: ToastItem[] = []
let nextId = 0
const listeners = new Set<() => void>()
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>()

function emit() {
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

function getSnapshot() {
  return toasts
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id)
      toasts = toasts.filter((item) => item.id !== id)
      emit()
    }, REMOVE_DELAY_MS),
  )
}

export function dismissToast(id?: string) {
  toasts = toasts.map((item) =>
    id === undefined || item.id === id ? { ...item, open: false } : item,
  )
  for (const item of toasts) if (!item.open) scheduleRemoval(item.id)
  emit()
}

export function toast(input: ToastInput) {
  const standing = toasts.find((item) => item.open && item.supersedesErrors)
  if (standing && (input.variant === 'destructive' || input.title === standing.title)) {
    return { id: standing.id, dismiss: () => dismissToast(standing.id) }
  }
  nextId += 1
  const id = String(nextId)
  const item: ToastItem = { variant: 'default', ...input, id, open: true }
  toasts = [item, ...toasts].slice(0, TOAST_LIMIT)
  emit()
  return { id, dismiss: () => dismissToast(id) }
}

export function useToasts() {
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
}

/** Forgets every toast at once; tests call it so one test's message can't leak into the next. */
export function resetToasts() {
  for (const timer of removalTimers.values()) clearTimeout(timer)
  removalTimers.clear()
  toasts = []
  emit()
}
