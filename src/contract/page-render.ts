/**
 * What passes between the server and the build's render module (src/client/entry-server.tsx,
 * built into dist/render; called by src/server/plugins/page-render.ts): declared once, here, for
 * both sides of the wall between client and server.
 */

/** Sends one of the page's API requests to the server's own routes, as the visitor. */
export type ApiTransport = (url: string, init: RequestInit) => Promise<Response>

export type RenderedPage =
  | {
      kind: 'page'
      status: number
      /** `<title>`, `<meta>` and `<link>` tags React hoisted, for the document's head. */
      head: string
      /** The markup of #root. */
      body: string
      /** The script that hands main.tsx the state the page was rendered with. */
      stateScript: string
      /**
       * When the page would render differently by the clock alone (ms since the epoch): the
       * soonest start still to come of a podclub it shows, whose seat buttons go then. Null when
       * it shows none.
       */
      changesAt: number | null
      /** It drew random touches (a seed): another render of it differs. */
      seeded: boolean
    }
  | { kind: 'redirect'; status: number; location: string }
  /** A page the browser renders from the shell. */
  | { kind: 'shell' }

export type RenderOptions = {
  /** Aborted when the render passes its time limit: its loaders and React's render stop. */
  signal: AbortSignal
}

export type RenderModule = {
  renderPage: (url: URL, send: ApiTransport, options: RenderOptions) => Promise<RenderedPage>
  /**
   * Whether the page at `url` is rendered on the server and its loaders first ask who the viewer
   * is (whoami), as every screen's do; the not-found page of an address that is no page asks
   * nothing. The server may then ask first, and keep the page for every viewer given the same
   * answer (plugins/page-render.ts).
   */
  asksViewerFirst: (url: URL) => boolean
}

/** Where the page's template takes the rendered screen. */
export const ROOT_ELEMENT = '<div id="root"></div>'
const TITLE = /<title>[^<]*<\/title>/

/**
 * The page `template` (the built or the development index.html) with a rendered screen in it:
 * React's title in place of the template's, its other hoisted tags at the end of the head, the
 * screen in #root and the state after it. Replaced by functions: a `$` in what members wrote is
 * text, not a replacement pattern.
 */
export function pageHtml(
  template: string,
  rendered: Extract<RenderedPage, { kind: 'page' }>,
): string {
  const title = TITLE.exec(rendered.head)?.[0]
  return template
    .replace(TITLE, (own) => title ?? own)
    .replace('</head>', () => `${rendered.head.replace(TITLE, '')}</head>`)
    .replace(ROOT_ELEMENT, () => `<div id="root">${rendered.body}</div>${rendered.stateScript}`)
}
