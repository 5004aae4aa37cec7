/**
 * The page's code is fetched once its first screen has painted (docs/decisions/035). A page the
 * server rendered can be read before any script runs; on a slow phone the scripts, fetched beside
 * the stylesheet, share the network with it and hold back the first paint. So the entry, and the
 * files of the first screen the server lists (`SCREEN_FILES_ID`, entry-server.tsx), are asked for
 * after that paint. Taps meanwhile are held and replayed (early-taps.ts).
 *
 * It starts at once when nothing would paint first: a page the browser renders itself (its #root
 * empty), a hidden or prerendered one. Without paint timing it waits two animation frames; in
 * any case it starts at the latest `LATEST_MS` after the document is parsed.
 *
 * Bundled on its own into the end of the document's body (vite.config.ts, `loadAfterPaint`) in
 * the build; `npm run dev` loads its code as Vite serves it.
 */

/** The id of the JSON list of the first screen's files, written into the page by the server. */
export const SCREEN_FILES_ID = 'screen-files'

/** When the page's code is fetched whatever has or has not painted (ms after parsing). */
export const LATEST_MS = 1_000

/** Asks for `entry` and the first screen's files once the page has painted. */
export function loadAfterFirstPaint(entry: string, alsoPreload: readonly string[] = []) {
  let started = false
  /** Ends what waits for the paint: whichever starts first ends the others. */
  const stopWaiting: (() => void)[] = []
  const start = () => {
    if (started) return
    started = true
    for (const stop of stopWaiting) stop()
    const script = document.createElement('script')
    script.type = 'module'
    script.crossOrigin = ''
    script.src = entry
    document.head.append(script)
    const listed = document.getElementById(SCREEN_FILES_ID)?.textContent
    const files: unknown = listed ? JSON.parse(listed) : []
    for (const href of [...alsoPreload, ...(Array.isArray(files) ? files : [])]) {
      if (typeof href !== 'string') continue
      const link = document.createElement('link')
      link.rel = 'modulepreload'
      link.crossOrigin = ''
      link.href = href
      document.head.append(link)
    }
  }

  const root = document.getElementById('root')
  const nothingToPaint =
    !root?.firstElementChild ||
    document.visibilityState !== 'visible' ||
    (document as { prerendering?: boolean }).prerendering === true
  if (nothingToPaint) return start()

  document.addEventListener('visibilitychange', start)
  const latest = setTimeout(start, LATEST_MS)
  stopWaiting.push(
    () => document.removeEventListener('visibilitychange', start),
    () => clearTimeout(latest),
  )
  if (globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
    const observer = new PerformanceObserver(start)
    observer.observe({ type: 'paint', buffered: true })
    stopWaiting.push(() => observer.disconnect())
  } else {
    requestAnimationFrame(() => requestAnimationFrame(start))
  }
}
