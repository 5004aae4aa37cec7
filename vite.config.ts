import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, runnerImport, type Plugin } from 'vite'
import type { EndpointRegistry, routesOf as RoutesOf } from './src/contract/endpoint'

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

/**
 * React's API on Preact's runtime (docs/decisions/024): the code, its types and every library
 * it uses are written for React; what runs in the browser, on the server and in the client's
 * tests is preact/compat, a tenth of React DOM's size and start-up work. The React packages stay
 * for their types.
 */
export const reactOnPreact = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
]

/**
 * React Router's ES modules, the production or the development build: its package names the
 * CommonJS ones for Node, which would reach React past the aliases above, and only the
 * development build for browsers.
 */
export function reactRouterModules(build: 'production' | 'development') {
  const dist = fileURLToPath(new URL(`./node_modules/react-router/dist/${build}/`, import.meta.url))
  return [
    { find: /^react-router\/dom$/, replacement: `${dist}dom-export.mjs` },
    { find: /^react-router$/, replacement: `${dist}index.mjs` },
  ]
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
 * What the bundler says about the libraries that is expected: their "use client" marks (for
 * React Server Components, which this app does not use), and React Router reaching for React
 * 19's `useOptimistic`, which Preact does not have and which the router does without.
 */
function quietExpectedLogs(
  level: string,
  log: { code?: string; message: string },
  defaultHandler: (level: 'warn' | 'info' | 'debug', log: { message: string }) => void,
) {
  if (log.code === 'MODULE_LEVEL_DIRECTIVE') return
  if (log.code === 'IMPORT_IS_UNDEFINED' && log.message.includes('`useOptimistic`')) return
  defaultHandler(level as 'warn', log)
}

export default defineConfig(({ mode, isSsrBuild }) => ({
  root: 'src/client',
  publicDir: fileURLToPath(new URL('./src/client/public', import.meta.url)),
  plugins: [tailwindcss(), apiRoutes(), ...(isSsrBuild ? [] : [precompress()])],
  // JSX as React's automatic runtime writes it, which the aliases above point at Preact's.
  oxc: { jsx: { runtime: 'automatic' as const } },
  resolve: {
    alias: [
      { find: /^#contract\//, replacement: src('contract') },
      { find: /^#client\//, replacement: src('client') },
      ...reactOnPreact,
      ...reactRouterModules(mode === 'production' ? 'production' : 'development'),
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
    proxy: { '/api': 'http://127.0.0.1:3000', '/healthz': 'http://127.0.0.1:3000' },
  },
}))
