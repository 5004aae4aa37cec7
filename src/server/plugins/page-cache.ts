import { promisify } from 'node:util'
import { brotliDecompress } from 'node:zlib'
import type { Endpoint } from '#contract/endpoint'
import { cacheVersionsOf, type Versions } from '../db/cache-versions'
import type { Db } from '../db/client'
import { encode, type ContentEncoding } from '../lib/content-encoding'

/**
 * Server-rendered pages kept for every viewer who would get the same page (docs/decisions/032):
 * a page is rendered once per key (the viewer as the API describes them, the address) while the
 * versions its reads consulted stand (db/cache-versions.ts: `collectVersions`) and until a
 * podclub it shows starts;
 * after `maxAgeMs` it is rendered again while it is still sent. Requests arriving together for
 * the same page share one render. What may be kept is decided by plugins/page-render.ts; this
 * module knows nothing of React.
 */

/**
 * An API read a kept page may make: one whose answer is made of cached reads (`CachedRead`), whose
 * versions the render notes as it consults them, or of settings that change only with a restart.
 * A page whose render makes any other request is not kept.
 */
export type PageRead = {
  endpoint: Pick<Endpoint, 'method' | 'path'>
  /**
   * Whether this answer is made of what `versions` stand for alone (absent: always). A podclub's
   * detail for one of its participants adds what no version stands for, its hindsights.
   */
  shared?: (answer: unknown) => boolean
}

/** A rendered page to keep, as the renderer hands it over. */
export type PageToKeep = {
  html: Buffer
  /** The versions its reads consulted, at the values they were consulted at (`collectVersions`). */
  versions: Versions
  /**
   * When it would render differently by the clock alone (ms since the epoch), or null: kept
   * until then at the latest.
   */
  changesAt: number | null
  /** Drew random touches (the home feed's join card): kept in `PAGE_VARIANTS` renders of its own. */
  seeded: boolean
}

/**
 * A page kept, in the forms browsers ask for: each compressed form made once, when one first asks
 * for it. Once it is in brotli (what browsers take) its HTML is let go, a thirtieth of its size:
 * a member's page is kept for them alone, so many are. A client that takes no compression gets
 * it inflated again.
 */
export type KeptPage = {
  body(encoding: ContentEncoding): Promise<Buffer>
}

type Entry = KeptPage & {
  /** The names of the versions it stands on. */
  versions: readonly string[]
  /** Their values when its render consulted them. */
  readAt: Versions
  /** When the clock changes it (a podclub it shows starts): rendered again before it is sent. */
  changesAt: number
  /** When it has been kept `maxAgeMs`: rendered again while it is still sent. */
  renewAt: number
  bytes: number
}

/**
 * How many renders of a page with random touches are kept: each request gets one of them at
 * random, so a visitor's join card still varies from visit to visit (spec 1 §2, a random
 * tagline), at the cost of this many renders per version instead of one.
 */
export const PAGE_VARIANTS = 4

export type PageCacheOptions = {
  /** Pages kept at most (the least recently served go first). */
  maxPages?: number
  /** Bytes kept at most, HTML and compressed forms together. */
  maxBytes?: number
  /**
   * How long a page is kept before it is rendered again, whatever its versions say: a bound on
   * anything the clock changes in it that the render module does not report, and on how long a
   * visitor's home keeps its random touches. Its versions still standing, it is sent meanwhile:
   * nobody waits for it. (The browser dates a page's data from its navigation, start-page.tsx, so
   * the age of a render does not make it ask again.)
   */
  maxAgeMs?: number
  /** The clock of the render module (the page's `Date.now()`); a test's own in tests. */
  now?: () => number
}

/** Brotli's level for a kept page: compressed once per render, not per request. */
const KEPT_BROTLI_QUALITY = 6
const inflate = promisify(brotliDecompress)

/** Whether every version a page stands on is at least as new as `current`'s. */
function standsAt(entry: Entry, current: Versions) {
  return entry.versions.every((name) => (entry.readAt.get(name) ?? -1) >= (current.get(name) ?? 0))
}

/** Whether `a` is older than `b` in some version they both have. */
function olderIn(a: Versions, b: Versions) {
  return [...a].some(([name, version]) => version < (b.get(name) ?? -1))
}

export function createPageCache(
  db: Db,
  {
    maxPages = 500,
    maxBytes = 32 * 1024 * 1024,
    maxAgeMs = 60_000,
    now = Date.now,
  }: PageCacheOptions = {},
) {
  const versions = cacheVersionsOf(db)
  /** By key, least recently served first. */
  const entries = new Map<string, Entry>()
  /** Renders under way by key, with the versions read before each began. */
  const rendering = new Map<string, Promise<Entry | null>>()
  /** Keys whose page drew random touches, learnt from their first render. */
  const seededKeys = new Set<string>()
  let bytes = 0
  const counts = { renders: 0, served: 0 }

  const drop = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    bytes -= entry.bytes
  }
  const trim = () => {
    for (const key of entries.keys()) {
      if (entries.size <= maxPages && bytes <= maxBytes) break
      drop(key)
    }
  }

  const keep = (key: string, page: PageToKeep): Entry => {
    const forms = new Map<ContentEncoding, Promise<Buffer>>([
      ['identity', Promise.resolve(page.html)],
    ])
    /** Counts `delta` bytes more (or fewer) for the entry, and for the cache while it holds it. */
    const resize = (delta: number) => {
      entry.bytes += delta
      if (entries.get(key) !== entry) return
      bytes += delta
      trim()
    }
    const entry: Entry = {
      versions: [...page.versions.keys()],
      readAt: page.versions,
      changesAt: page.changesAt ?? Number.POSITIVE_INFINITY,
      renewAt: now() + maxAgeMs,
      bytes: page.html.length,
      body(encoding) {
        let made = forms.get(encoding)
        if (made) return made
        made =
          encoding === 'identity'
            ? forms.get('br')!.then((br) => inflate(br))
            : entry
                .body('identity')
                .then((html) => encode(html, encoding, { brotliQuality: KEPT_BROTLI_QUALITY }))
        forms.set(encoding, made)
        made.then(
          (body) => {
            resize(body.length)
            if (encoding !== 'br') return
            const html = forms.get('identity')
            forms.delete('identity')
            void html?.then((plain) => resize(-plain.length))
          },
          () => forms.delete(encoding),
        )
        return made
      },
    }
    // A render that read older versions than the one kept now answers its own callers, and is
    // not kept.
    const kept = entries.get(key)
    if (kept && olderIn(page.versions, kept.readAt)) return entry
    drop(key)
    entries.set(key, entry)
    bytes += entry.bytes
    trim()
    return entry
  }

  /** Renders the page for `variantKey` and keeps it; requests arriving meanwhile join it. */
  const renderOnce = (
    key: string,
    variantKey: string,
    render: () => Promise<PageToKeep | null>,
  ) => {
    const done = (async () => {
      counts.renders += 1
      const page = await render()
      if (!page) return null
      if (page.seeded) {
        if (seededKeys.size >= maxPages) seededKeys.clear()
        seededKeys.add(key)
      }
      return keep(variantKey, page)
    })()
    rendering.set(variantKey, done)
    const forget = () => {
      if (rendering.get(variantKey) === done) rendering.delete(variantKey)
    }
    done.then(forget, forget)
    return done
  }

  return {
    /**
     * The page kept for `key`, or the one `render` makes when none stands at the versions as of
     * now. A page stands on the versions its render consulted, at the values consulted (so a
     * write acknowledged before this call raised one of them, or is in the page; a write during
     * the render makes the next request render again). `render` resolves to null when
     * its page may not be kept: the caller then sends what it rendered, and a caller that joined
     * someone else's render gets null and renders its own.
     */
    async page(key: string, render: () => Promise<PageToKeep | null>): Promise<KeptPage | null> {
      const variant = seededKeys.has(key) ? Math.floor(Math.random() * PAGE_VARIANTS) : 0
      const variantKey = `${variant}\n${key}`
      const entry = entries.get(variantKey)
      const current = entry && (await versions.current(entry.versions))
      if (entry) {
        const at = now()
        if (at < entry.changesAt && current && standsAt(entry, current)) {
          // Served last: the least recently served are dropped first.
          entries.delete(variantKey)
          entries.set(variantKey, entry)
          counts.served += 1
          if (at >= entry.renewAt && !rendering.has(variantKey)) {
            // Rendered again for those who come next; a failure leaves the page kept as it is.
            renderOnce(key, variantKey, render).catch(() => {})
          }
          return entry
        }
        if (entries.get(variantKey) === entry) drop(variantKey)
      }
      const under = rendering.get(variantKey)
      if (under) {
        // Joined: its page serves this request only if no version it read was raised since,
        // maybe by a write acknowledged before this request came.
        const made = await under
        if (made && standsAt(made, await versions.current(made.versions))) return made
      }
      return renderOnce(key, variantKey, render)
    },
    /** What it holds and has done (a copy), for tests and the bench. */
    stats: () => ({ pages: entries.size, bytes, ...counts }),
  }
}

export type PageCache = ReturnType<typeof createPageCache>
