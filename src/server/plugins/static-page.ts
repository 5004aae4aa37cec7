import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isApiPath, sendError } from './errors'
import { pagePolicy } from './security-headers'
import { createPageRenderer, type PageSharing } from './page-render'

/** The text of each `<script>` without a `src` in `html`: the ones the page runs inline. */
export function inlineScriptsOf(html: string): string[] {
  return [
    ...html.matchAll(
      /<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")[^>]*>([\s\S]*?)<\/script>/g,
    ),
  ].map((match) => match[1] ?? '')
}

export type StaticPageOptions = {
  /** Serve the built page (main.ts in production); off, only the API answers. */
  serve: boolean
  /** The build's folder, with index.html at its root. */
  clientDir: string
  /** The build's module that renders a page's first screen on the server (page-render.ts). */
  renderModule: string | undefined
  /** Keep rendered pages for every viewer the API describes the same way (page-render.ts). */
  sharing?: PageSharing
}

/**
 * The built page: its files as the build wrote them (pre-compressed, see docs/decisions/007), and
 * for every other GET of a page address the page with its first screen rendered on the server
 * (page-render.ts) or, for a screen the browser renders, index.html as it is, which the client
 * router renders (its own not-found page included). Whatever else nothing answered is a 404 in the
 * API's error shape.
 */
export const staticPagePlugin = fp<StaticPageOptions>(
  async (app: FastifyInstance, { serve, clientDir, renderModule, sharing }) => {
    const template = path.join(clientDir, 'index.html')
    const hasClient = serve && existsSync(template)
    const page = hasClient ? await readFile(template, 'utf8') : ''
    // The page's own inline scripts run, by their hashes; nothing else inline does.
    const policy = hasClient ? pagePolicy(inlineScriptsOf(page)) : ''
    const renderer =
      hasClient && renderModule
        ? await createPageRenderer(app, { renderModule, template, page, policy, sharing })
        : null
    if (hasClient) {
      await app.register(fastifyStatic, {
        root: clientDir,
        wildcard: false,
        index: false,
        // The build writes name.br and name.gz beside each text file (vite.config.ts): sent as
        // they are to a browser that accepts them, with Vary: Accept-Encoding.
        preCompressed: true,
        setHeaders: (res, filePath) => {
          res.header(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          )
        },
      })
    }

    app.setNotFoundHandler(async (request, reply) => {
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url)
      if (renderer && request.method === 'GET' && isPage && (await renderer.send(request, reply))) {
        return reply
      }
      // A form the browser sent itself, its page's code not running (login with scripts off):
      // nothing is done with it, and the page is shown again.
      if (hasClient && request.method === 'POST' && !isApiPath(request.url)) {
        return reply.redirect(request.url, 303)
      }
      if (hasClient && isPage) {
        // sendFile picks index.html.br or .gz too when the browser accepts them.
        return reply
          .header('cache-control', 'no-cache')
          .header('content-security-policy', policy)
          .sendFile('index.html')
      }
      return sendError(request, reply, 'NOT_FOUND', 'Resource not found')
    })
  },
  { name: 'static-page' },
)
