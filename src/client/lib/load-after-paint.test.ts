import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LATEST_MS, loadAfterFirstPaint, SCREEN_FILES_ID } from './load-after-paint'

/** What the page has asked for: the module scripts, then the module preloads. */
function asked() {
  return {
    scripts: [...document.head.querySelectorAll<HTMLScriptElement>('script[type="module"]')].map(
      (script) => script.getAttribute('src'),
    ),
    preloads: [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map(
      (link) => link.getAttribute('href'),
    ),
  }
}

/** A browser's paint timing, as a page sees it: `paint()` reports the first paint. */
function paintTiming() {
  const observers = new Set<() => void>()
  class FakeObserver {
    static supportedEntryTypes = ['paint', 'navigation']
    constructor(private readonly callback: () => void) {}
    observe(options: { type: string }) {
      if (options.type === 'paint') observers.add(this.callback)
    }
    disconnect() {
      observers.delete(this.callback)
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver)
  return {
    paint: () => observers.forEach((callback) => callback()),
    /** Observers still waiting for a paint. */
    observing: () => observers.size,
  }
}

function serverRendered(files: string[] = []) {
  document.body.innerHTML = `<div id="root"><main><h1>podclub</h1></main></div>${
    files.length > 0
      ? `<script type="application/json" id="${SCREEN_FILES_ID}">${JSON.stringify(files)}</script>`
      : ''
  }`
}

describe('loadAfterFirstPaint', () => {
  beforeEach(() => {
    document.head.innerHTML = ''
    document.body.innerHTML = ''
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it("asks for a server-rendered page's entry and its screen's files once it has painted", () => {
    const timing = paintTiming()
    serverRendered(['/assets/home-1.js', '/assets/card-2.js'])
    loadAfterFirstPaint('/assets/index-3.js', ['/assets/shared-4.js'])
    expect(asked()).toEqual({ scripts: [], preloads: [] })

    timing.paint()
    timing.paint()
    expect(asked()).toEqual({
      scripts: ['/assets/index-3.js'],
      preloads: ['/assets/shared-4.js', '/assets/home-1.js', '/assets/card-2.js'],
    })
    // Nothing is left waiting: no observer, no timer.
    expect(timing.observing()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('asks at once when there is nothing to paint first: a page the browser renders', () => {
    paintTiming()
    document.body.innerHTML = '<div id="root"></div>'
    loadAfterFirstPaint('/assets/index-3.js')
    expect(asked().scripts).toEqual(['/assets/index-3.js'])
  })

  it('asks at once in a hidden tab, which does not paint', () => {
    paintTiming()
    serverRendered()
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    loadAfterFirstPaint('/assets/index-3.js')
    expect(asked().scripts).toEqual(['/assets/index-3.js'])
  })

  it('asks once the time runs out when no paint is reported', () => {
    const timing = paintTiming()
    serverRendered()
    loadAfterFirstPaint('/assets/index-3.js')
    vi.advanceTimersByTime(LATEST_MS - 1)
    expect(asked().scripts).toEqual([])
    vi.advanceTimersByTime(1)
    expect(asked().scripts).toEqual(['/assets/index-3.js'])
    expect(timing.observing()).toBe(0)
  })

  it('waits two frames where the browser has no paint timing', () => {
    vi.stubGlobal('PerformanceObserver', undefined)
    const frames: FrameRequestCallback[] = []
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      frames.push(callback)
      return frames.length
    })
    serverRendered()
    loadAfterFirstPaint('/assets/index-3.js')
    frames.shift()!(0)
    expect(asked().scripts).toEqual([])
    frames.shift()!(16)
    expect(asked().scripts).toEqual(['/assets/index-3.js'])
  })
})
