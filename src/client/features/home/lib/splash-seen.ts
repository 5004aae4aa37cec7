/**
 * Whether the splash has played in this visit. A visit is the browser tab's session
 * (sessionStorage): going back to `/`, or reloading it, does not play the splash again; a new
 * tab, or the tab reopened later, does. Where storage is off (some private modes), the flag
 * lasts as long as the page.
 */

const KEY = 'podclub.splash-seen'
let seenWithoutStorage = false

export function hasSeenSplash(): boolean {
  try {
    return window.sessionStorage.getItem(KEY) === '1'
  } catch {
    return seenWithoutStorage
  }
}

export function markSplashSeen() {
  try {
    window.sessionStorage.setItem(KEY, '1')
  } catch {
    seenWithoutStorage = true
  }
}
