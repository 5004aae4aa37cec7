import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { build as esbuild } from 'esbuild'
import { defineConfig, runnerImport, type Plugin } from 'vite'
import type { EndpointRegistry, routesOf as RoutesOf } from './src/contract/endpoint'
import { pageHtml, type RenderModule } from './src/contract/page-render'

const src = (dir: string) => fileURLToPath(new URL(`./src/${dir}/`, import.meta.url))

/** Text files worth compressing; smaller ones gain less than a header costs. */
const PRECOMPRESS_TYPES = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/
const PRECOMPRESS_MIN_BYTES = 1024

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name)
      return entry.isDirectory() ? filesUnder(full) : Promise.resolve(entry.isFile() ? [full] : [])
    }),
  )
  return nested.flat()
}

/**
 * Writes `name.br` and `name.gz` beside every text file of `dir` above 1 KiB, at the highest
 * levels: done once per build, so the server sends them as they are and spends no CPU per
 * request (@fastify/static's `preCompressed`). A variant that saves nothing is left out.
 */
export async function precompressDir(dir: string): Promise<string[]> {
  const written: string[] = []
  for (const file of await filesUnder(dir)) {
    if (!PRECOMPRESS_TYPES.test(file)) continue
    if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) continue
    const source = await readFile(file)
    const variants: [string, Buffer][] = [
      [
        '.br',
        await brotli(source, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
      ],
      ['.gz', await gzipAsync(source, { level: zlibConstants.Z_BEST_COMPRESSION })],
    ]
    for (const [extension, body] of variants) {
      if (body.length >= source.length) continue
      await writeFile(file + extension, body)
      written.push(file + extension)
    }
  }
  return written
}

/** Runs `precompressDir` on the build's output once everything, public files too, is written. */
function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'podclub:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle(error) {
      if (error) return
      await precompressDir(outDir)
    },
  }
}

/** `contents` (TypeScript importing from src/client) bundled into one small inline script. */
async function inlineScript(contents: string): Promise<string> {
  const bundled = await esbuild({
    stdin: { contents, resolveDir: src('client'), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  })
  return `<script>${bundled.outputFiles[0]?.text.trim() ?? ''}</script>`
}

/**
 * Puts `captureEarlyTaps` (src/client/lib/early-taps.ts) into the document's head as an inline
 * script, so it holds taps from the first paint, before any file has loaded. The server allows
 * exactly the inline scripts the built page carries, by their hashes (plugins/static-page.ts).
 */
function earlyTaps(): Plugin {
  return {
    name: 'podclub:early-taps',
    async transformIndexHtml(html) {
      const script = await inlineScript(
        "import { captureEarlyTaps } from './lib/early-taps'\ncaptureEarlyTaps()",
      )
      // After the charset, which must come first, and before the stylesheet (linked in `npm run
      // dev`), which an inline script after it would wait for.
      const charset = /<meta charset="[^"]*"\s*\/?>/i
      if (!charset.test(html)) throw new Error('index.html has no <meta charset> to follow')
      return html.replace(charset, (tag) => `${tag}\n    ${script}`)
    },
  }
}

/** The module scripts, module preloads and stylesheets the build put into index.html. */
const BUILT_TAG =
  /<script type="module" crossorigin src="([^"]+)"><\/script>|<link rel="modulepreload" crossorigin href="([^"]+)">|<link rel="stylesheet" crossorigin href="([^"]+)">/g

/**
 * The built index.html painted before its code is fetched (docs/decisions/035): the stylesheet
 * the build linked is put into the page (`styleOf` reads it from the build), so the first paint
 * waits for no file; the entry's `<script>` and any module preloads become one inline script at
 * the end of the body (src/client/lib/load-after-paint.ts), which asks for them once the page
 * has painted.
 */
export async function paintFirst(
  html: string,
  styleOf: (href: string) => string | undefined,
): Promise<string> {
  let entry: string | undefined
  const preloads: string[] = []
  const rest = html.replace(
    BUILT_TAG,
    (_tag, script?: string, preload?: string, stylesheet?: string) => {
      if (script) {
        if (entry) throw new Error('index.html has more than one module script')
        entry = script
      } else if (preload) preloads.push(preload)
      else if (stylesheet) {
        const style = styleOf(stylesheet)
        if (style === undefined) throw new Error(`the build has no stylesheet ${stylesheet}`)
        if (/<\/style/i.test(style)) throw new Error(`${stylesheet} cannot be put into the page`)
        return `<style>${style.trim()}</style>`
      }
      return ''
    },
  )
  if (!entry) throw new Error('the built index.html has no module script')
  if (!rest.includes('</body>')) throw new Error('index.html has no </body>')
  const script = await inlineScript(
    `import { loadAfterFirstPaint } from './lib/load-after-paint'\n` +
      `loadAfterFirstPaint(${JSON.stringify(entry)}, ${JSON.stringify(preloads)})`,
  )
  return rest.replace('</body>', () => `  ${script}\n  </body>`)
}

/** `paintFirst` on the built index.html, with the stylesheets of the bundle. */
function paintFirstInBuild(): Plugin {
  return {
    name: 'podclub:paint-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return paintFirst(html, (href) => {
          const asset = bundle?.[href.replace(/^\//, '')]
          if (asset?.type !== 'asset') return undefined
          return typeof asset.source === 'string'
            ? asset.source
            : new TextDecoder().decode(asset.source)
        })
      },
    },
  }
}

/** Where `npm run dev` runs the API (scripts/dev.mjs); the page's requests are proxied there. */
const DEV_API_ORIGIN = process.env.DEV_API_ORIGIN ?? 'http://127.0.0.1:3000'

/** A request for a page: a GET that accepts HTML, of an address that is not the API or a file. */
function isPageRequest(method: string | undefined, url: string, accept: string | undefined) {
  const pathname = url.split('?')[0] ?? ''
  return (
    method === 'GET' &&
    !!accept?.includes('text/html') &&
    !pathname.startsWith('/api/') &&
    !pathname.startsWith('/@') &&
    !/\.[a-z0-9]+$/i.test(pathname)
  )
}

/**
 * `npm run dev` renders pages on the server as production does (docs/decisions/027): Vite loads
 * the render module from its sources (`ssrLoadModule`, fresh after every change), whose API
 * requests go to the development API with the visitor's cookie, and the page is put into Vite's
 * own index.html (with its client and fast refresh) by the same `pageHtml` as the server's.
 */
export function devServerRender(apiOrigin = DEV_API_ORIGIN): Plugin {
  return {
    name: 'podclub:dev-server-render',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const address = req.originalUrl ?? req.url ?? '/'
        if (!isPageRequest(req.method, address, req.headers.accept)) return next()
        const render = async () => {
          const url = new URL(address, 'http://page.invalid')
          const { renderPage } = (await server.ssrLoadModule('/entry-server.tsx')) as RenderModule
          const cookies: string[] = []
          const rendered = await renderPage(
            url,
            async (path, init) => {
              const answer = await fetch(new URL(path, apiOrigin), {
                ...init,
                headers: {
                  accept: 'application/json',
                  ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}),
                  ...(req.headers['user-agent'] ? { 'user-agent': req.headers['user-agent'] } : {}),
                },
              })
              cookies.push(...answer.headers.getSetCookie())
              return answer
            },
            { signal: AbortSignal.timeout(10_000) },
          )
          if (rendered.kind === 'shell') return next()
          if (cookies.length > 0) res.setHeader('set-cookie', cookies)
          res.statusCode = rendered.status
          if (rendered.kind === 'redirect') {
            res.setHeader('location', rendered.location)
            return res.end()
          }
          const template = await server.transformIndexHtml(
            address,
            await readFile(path.join(server.config.root, 'index.html'), 'utf8'),
          )
          res.setHeader('content-type', 'text/html; charset=utf-8')
          res.end(pageHtml(template, rendered))
        }
        render().catch((error: unknown) => {
          if (error instanceof Error) server.ssrFixStacktrace(error)
          next(error)
        })
      })
    },
  }
}

const API_ROUTES_MODULE = 'virtual:api-routes'

/** Reads the contract's declarations as they are now, with their own imports. */
async function readRoutes() {
  const load = <T>(file: string) =>
    runnerImport<T>(fileURLToPath(new URL(file, import.meta.url)), {
      configFile: false,
      logLevel: 'error',
    })
  const [{ module: registry }, { module: endpoint }] = await Promise.all([
    load<{ endpoints: EndpointRegistry }>('./src/contract/endpoints.ts'),
    load<{ routesOf: typeof RoutesOf }>('./src/contract/endpoint.ts'),
  ])
  return endpoint.routesOf(registry.endpoints)
}

/**
 * `virtual:api-routes`: the method and path of every endpoint the contract declares, by name,
 * read from the declarations when the page is built. The page calls the API through these, so it
 * needs none of the contract's zod schemas to do so (the server checks every answer against them
 * before it leaves). The dev server reads them again when a contract file changes.
 */
export function apiRoutes(): Plugin {
  const resolved = `\0${API_ROUTES_MODULE}`
  return {
    name: 'podclub:api-routes',
    resolveId: (id) => (id === API_ROUTES_MODULE ? resolved : undefined),
    load: async (id) =>
      id === resolved
        ? `export const apiRoutes = ${JSON.stringify(await readRoutes())}`
        : undefined,
    configureServer(server) {
      const contract = fileURLToPath(new URL('./src/contract/', import.meta.url))
      server.watcher.add(contract)
      server.watcher.on('change', (file) => {
        if (!file.startsWith(contract)) return
        const module = server.moduleGraph.getModuleById(resolved)
        if (module) server.reloadModule(module)
      })
    },
  }
}

const SCREEN_PRELOADS_MODULE = 'virtual:screen-preloads'

/** An entry of Vite's build manifest (`.vite/manifest.json`), as far as it is read here. */
export type ManifestChunk = { file: string; src?: string; imports?: string[]; isEntry?: boolean }

/**
 * The files each screen (`app/routes/<name>.tsx`) loads in the browser beyond what the page's
 * entry loads with it, by the screen's name: its own chunk first, then what it imports.
 */
export function screenPreloadsOf(manifest: Record<string, ManifestChunk>) {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)
  const loadedWithEntry = new Set(entry ? [entry[0], ...(entry[1].imports ?? [])] : [])
  const preloads: Record<string, string[]> = {}
  for (const [key, chunk] of Object.entries(manifest)) {
    const name = /^app\/routes\/([\w-]+)\.tsx$/.exec(chunk.src ?? '')?.[1]
    if (!name) continue
    const files = new Set<string>()
    const visit = (at: string) => {
      const found = manifest[at]
      if (!found || loadedWithEntry.has(at) || files.has(`/${found.file}`)) return
      files.add(`/${found.file}`)
      for (const next of found.imports ?? []) visit(next)
    }
    visit(key)
    preloads[name] = [...files]
  }
  return preloads
}

/**
 * `virtual:screen-preloads`, for the server's render (entry-server.tsx): `screenPreloadsOf` the
 * manifest of the page's build, which runs first (scripts/build.mjs). The server lists those
 * files in the page it renders, and the page asks for them beside its entry
 * (lib/load-after-paint.ts) rather than after it, so Vite's preloading does not add the links
 * itself within the task that loads the screen. Empty in the browser's build, in development and
 * in tests.
 */
export function screenPreloads(isSsrBuild: boolean): Plugin {
  const resolved = `\0${SCREEN_PRELOADS_MODULE}`
  const manifestFile = fileURLToPath(new URL('./dist/client/.vite/manifest.json', import.meta.url))
  return {
    name: 'podclub:screen-preloads',
    resolveId: (id) => (id === SCREEN_PRELOADS_MODULE ? resolved : undefined),
    load: async (id) => {
      if (id !== resolved) return undefined
      const manifest = isSsrBuild
        ? (JSON.parse(await readFile(manifestFile, 'utf8')) as Record<string, ManifestChunk>)
        : {}
      return `export const screenPreloads = ${JSON.stringify(screenPreloadsOf(manifest))}`
    },
  }
}

/**
 * React Router's production build for a production bundle: its package names only the
 * development one (with its warnings and checks) for every condition a bundler asks with.
 */
function reactRouterBuild(mode: string) {
  if (mode !== 'production') return []
  const dist = fileURLToPath(
    new URL('./node_modules/react-router/dist/production/', import.meta.url),
  )
  return [{ find: /^react-router$/, replacement: `${dist}index.mjs` }]
}

/**
 * The build of the page's first screen for the server (src/client/entry-server.tsx, `vite build
 * --ssr entry-server.tsx`, scripts/build.mjs): one self-contained folder, its npm packages bundled in, so a
 * production install without the page's build tools and libraries runs it.
 */
const serverRender = {
  build: {
    outDir: fileURLToPath(new URL('./dist/render', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    copyPublicDir: false,
    rolldownOptions: { onLog: quietExpectedLogs },
  },
  ssr: { noExternal: true, target: 'node' },
  // React's development builds, which the bundled packages would otherwise choose at run time.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
} as const

/**
 * What the bundler says about the libraries that is expected: their "use client" marks, for
 * React Server Components, which this app does not use.
 */
function quietExpectedLogs(
  level: string,
  log: { code?: string; message: string },
  defaultHandler: (level: 'warn' | 'info' | 'debug', log: { message: string }) => void,
) {
  if (log.code === 'MODULE_LEVEL_DIRECTIVE') return
  defaultHandler(level as 'warn', log)
}

export default defineConfig(({ mode, isSsrBuild }) => ({
  root: 'src/client',
  publicDir: fileURLToPath(new URL('./src/client/public', import.meta.url)),
  plugins: [
    react(),
    tailwindcss(),
    apiRoutes(),
    screenPreloads(!!isSsrBuild && mode === 'production'),
    ...(isSsrBuild ? [] : [earlyTaps(), paintFirstInBuild(), precompress(), devServerRender()]),
  ],
  resolve: {
    alias: [
      { find: /^#contract\//, replacement: src('contract') },
      { find: /^#client\//, replacement: src('client') },
      ...reactRouterBuild(mode),
    ],
  },
  ...(isSsrBuild ? serverRender : {}),
  build: isSsrBuild
    ? serverRender.build
    : {
        outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
        emptyOutDir: true,
        sourcemap: true,
        // Lets `npm run size` follow the home route's chunk, which `/` loads at once.
        manifest: true,
        // The first-load budget is checked by `npm run size` (gzip), not by this minified-size warning.
        chunkSizeWarningLimit: 800,
        rolldownOptions: {
          onLog: quietExpectedLogs,
          output: {
            // Everything the entry imports statically loads on every first visit anyway: one file
            // instead of the few Rolldown would split off (React, the api client) compresses 2 KiB
            // better and costs fewer requests. Screens stay chunks of their own.
            codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
          },
        },
      },
  server: {
    port: 5173,
    proxy: { '/api': DEV_API_ORIGIN, '/healthz': DEV_API_ORIGIN },
  },
}))
