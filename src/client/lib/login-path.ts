import { pages } from '#contract/pages'

/**
 * The way back after logging in: `/login?next=/podclubs/7`. The login screen goes to `next` once
 * the member is in, and only when it is a path of this site; anything else goes Home.
 */

export const NEXT_PARAM = 'next'

// Any origin would do: a relative path resolves against it, and a path that names another host
// ('//evil.example', '/\evil.example', with tabs or line breaks inside) resolves away from it.
const HERE = 'http://podclub.invalid'

/** `next` when it is a path on this site (with its query and hash), else null. */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return null
  }
  let url: URL
  try {
    url = new URL(next, HERE)
  } catch {
    return null
  }
  if (url.origin !== HERE) return null
  return `${url.pathname}${url.search}${url.hash}`
}

/** The login screen, coming back to `from` (a path of this site) afterwards. */
export function loginPath(from?: string): string {
  const next = safeNextPath(from)
  if (!next) return pages.login.path
  return `${pages.login.path}?${new URLSearchParams({ [NEXT_PARAM]: next }).toString()}`
}
