/**
 * Numbers in [0, 1) that look random and repeat for the same seed (mulberry32). A page the
 * server renders picks its random touches (a tagline, where sparkles sit) from a seed it hands the
 * browser, which then renders the same ones when it hydrates the page.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A seed for `seededRandom`. */
export function newSeed() {
  return Math.floor(Math.random() * 2 ** 32)
}
