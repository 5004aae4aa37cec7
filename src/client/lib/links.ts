/** An external link of a podclub, derived from a URL (spec 1 §3 'Link (derived)'). */
export type DerivedLink = {
  url: string
  type: 'youtube' | 'spotify' | 'apple' | 'external'
  label: string
}

const KNOWN: { type: DerivedLink['type']; label: string; hosts: RegExp }[] = [
  { type: 'youtube', label: 'YouTube', hosts: /(^|\.)(youtube\.com|youtu\.be)$/ },
  { type: 'spotify', label: 'Spotify', hosts: /(^|\.)spotify\.(com|link)$/ },
  { type: 'apple', label: 'Apple Podcasts', hosts: /(^|\.)(podcasts\.apple\.com|apple\.co)$/ },
]

/**
 * The link a URL stands for: YouTube, Spotify, Apple Podcasts, or an external link labelled
 * with its host without 'www.'. An invalid URL, or one that is not http(s), gives none.
 */
export function deriveLink(raw: string): DerivedLink | null {
  const value = raw.trim()
  if (!value) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  const host = url.hostname.toLowerCase().replace(/^www\./, '')
  if (!host) return null
  const known = KNOWN.find((k) => k.hosts.test(host))
  return {
    url: url.href,
    type: known?.type ?? 'external',
    label: known?.label ?? host,
  }
}

/** At most three links of a podclub, in order, skipping empty and invalid URLs. */
export function deriveLinks(urls: readonly string[], max = 3): DerivedLink[] {
  return urls
    .map(deriveLink)
    .filter((l): l is DerivedLink => l !== null)
    .slice(0, max)
}
