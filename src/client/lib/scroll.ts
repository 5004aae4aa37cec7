function prefersReducedMotion() {
  return typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false
}

/** Smooth, unless the person asked their system for less motion. */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? 'auto' : 'smooth'
}

export function scrollToTop(behavior: ScrollBehavior = 'auto') {
  window.scrollTo({ top: 0, left: 0, behavior })
}

function targetOf(hash: string) {
  const id = decodeURIComponent(hash.replace(/^#/, ''))
  return id ? document.getElementById(id) : null
}

// A screen may render its anchor only once its data arrives, so wait a little for it.
const ANCHOR_WAIT_MS = 3000

/**
 * Spec 2 §2: navigation scrolls to the top, or smoothly to the hash anchor when one is given.
 * Returns a cleanup that stops waiting for a late anchor.
 */
export function scrollForNavigation(hash: string): () => void {
  if (!hash || hash === '#') {
    scrollToTop()
    return () => {}
  }
  const target = targetOf(hash)
  if (target) {
    target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' })
    return () => {}
  }
  scrollToTop()
  const observer = new MutationObserver(() => {
    const late = targetOf(hash)
    if (!late) return
    stop()
    late.scrollIntoView({ behavior: scrollBehavior(), block: 'start' })
  })
  const timer = setTimeout(() => stop(), ANCHOR_WAIT_MS)
  function stop() {
    observer.disconnect()
    clearTimeout(timer)
  }
  observer.observe(document.body, { childList: true, subtree: true })
  return stop
}
