import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyPluginAsync, LightMyRequestResponse } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineEndpoint } from '#contract/endpoint'
import { precompressDir, screenPreloadsOf, paintFirst } from '../../vite.config'
import { buildApp, type App } from './app'
import { route } from './lib/route'
import { buildTestApp, type TestApp } from './testing/test-app'

/**
 * What every answer goes over the wire with: compression (pre-made for the page's files, on the
 * fly for the API's JSON), the security headers, and the answer to a URL Fastify cannot decode.
 * The page is a small fake build in a temporary folder, compressed by the build's own step.
 */

const ENTRY = 'assets/index-abc123.js'
const entrySource = Array.from(
  { length: 400 },
  (_, i) => `export const episode${i} = { id: ${i}, title: "Episode ${i * 7919}" };`,
).join('\n')
const indexHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>podclub</title>
<script type="module" src="/${ENTRY}"></script></head><body><div id="root"></div>
<!-- ${Array.from({ length: 60 }, (_, i) => `line ${i} of the shell`).join(' ')} -->
</body></html>`
const favicon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect/></svg>'

/** An API answer well above the 1 KiB threshold, like the upcoming feed. */
const bigList = Array.from({ length: 120 }, (_, i) => ({ id: i, title: `Podclub number ${i}` }))
const bigListEndpoint = defineEndpoint({ method: 'GET', path: '/test/big/', access: 'public' })
const extraApiRoutes: FastifyPluginAsync = async (api) => {
  route(api.withTypeProvider<ZodTypeProvider>(), bigListEndpoint, async () => ({ data: bigList }))
}

let t: TestApp
let clientDir: string
let written: string[]
/** The app as `npm start` runs it: the page served, on http. */
let page: App
/** The same app behind https. */
let securePage: App

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(tmpdir(), 'podclub-client-'))
  await mkdir(path.join(clientDir, 'assets'))
  await writeFile(path.join(clientDir, 'index.html'), indexHtml)
  await writeFile(path.join(clientDir, ENTRY), entrySource)
  await writeFile(path.join(clientDir, `${ENTRY}.map`), JSON.stringify({ mappings: entrySource }))
  await writeFile(path.join(clientDir, 'favicon.svg'), favicon)
  written = await precompressDir(clientDir)

  t = await buildTestApp()
  page = await buildApp(t.deps, { serveClient: true, clientDir, extraApiRoutes })
  securePage = await buildApp(
    { ...t.deps, env: { ...t.deps.env, APP_URL: 'https://podclub.example' } },
    { serveClient: true, clientDir },
  )
  await Promise.all([page.ready(), securePage.ready()])
})
afterAll(async () => {
  await Promise.all([page?.close(), securePage?.close()])
  await t?.close()
  await rm(clientDir, { recursive: true, force: true })
})

const get = (app: App, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers })

function varyTokens(res: LightMyRequestResponse) {
  return String(res.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
}

describe('the build step', () => {
  it('writes .br and .gz beside text files above 1 KiB, and leaves the rest alone', async () => {
    expect(written.map((file) => path.relative(clientDir, file)).sort()).toEqual([
      `${ENTRY}.br`,
      `${ENTRY}.gz`,
      'index.html.br',
      'index.html.gz',
    ])
    const br = await readFile(path.join(clientDir, `${ENTRY}.br`))
    const gz = await readFile(path.join(clientDir, `${ENTRY}.gz`))
    expect(brotliDecompressSync(br).toString()).toBe(entrySource)
    expect(gunzipSync(gz).toString()).toBe(entrySource)
    expect(br.length).toBeLessThan(entrySource.length / 4)
  })

  it("lists each screen's files for the server to preload, without what the entry loads with it", () => {
    expect(
      screenPreloadsOf({
        'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_app-2.js'] },
        '_app-2.js': { file: 'assets/app-2.js' },
        'app/routes/podclub.tsx': {
          file: 'assets/podclub-3.js',
          src: 'app/routes/podclub.tsx',
          imports: ['index.html', '_spinner-4.js', '_app-2.js', '_card-5.js'],
        },
        '_spinner-4.js': { file: 'assets/spinner-4.js', imports: ['index.html'] },
        '_card-5.js': { file: 'assets/card-5.js', imports: ['_spinner-4.js'] },
        'app/routes/about.tsx': { file: 'assets/about-6.js', src: 'app/routes/about.tsx' },
        '../contract/invites.ts': { file: 'assets/invites-7.js', src: '../contract/invites.ts' },
      }),
    ).toEqual({
      podclub: ['/assets/podclub-3.js', '/assets/spinner-4.js', '/assets/card-5.js'],
      about: ['/assets/about-6.js'],
    })
  })
  it('paints the built page before its code is fetched: its style in the page, its code asked for after', async () => {
    const built = await paintFirst(
      `<html><head><script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/shared-2.js">
<link rel="stylesheet" crossorigin href="/assets/index-3.css"></head>
<body><div id="root"></div></body></html>`,
      (href) => (href === '/assets/index-3.css' ? 'body{color:red}\n' : undefined),
    )
    const [tag, loader] = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(built) ?? []
    expect(loader).toContain('"/assets/index-1.js",["/assets/shared-2.js"]')
    const rest = built.replace(tag!, '')
    expect(rest).not.toMatch(/type="module"|modulepreload|stylesheet/)
    expect(rest).toContain('<style>body{color:red}</style></head>')
    await expect(
      paintFirst(
        '<head><link rel="stylesheet" crossorigin href="/a.css"></head>',
        () => '</style>',
      ),
    ).rejects.toThrow('cannot be put into the page')
  })
})

describe('compression of the page', () => {
  it('sends the pre-made brotli file of an asset to a browser that accepts br', async () => {
    const res = await get(page, `/${ENTRY}`, { 'accept-encoding': 'gzip, deflate, br' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(varyTokens(res)).toContain('accept-encoding')
    // The very bytes the build wrote: nothing compressed again per request.
    expect(res.rawPayload.equals(await readFile(path.join(clientDir, `${ENTRY}.br`)))).toBe(true)
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(entrySource)
  })

  it('sends the gzip file to a browser without brotli, and the plain file to one without either', async () => {
    const gz = await get(page, `/${ENTRY}`, { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(entrySource)

    const plain = await get(page, `/${ENTRY}`)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(entrySource)
    // A cache in between must not hand this plain copy to a browser that accepts br.
    expect(varyTokens(plain)).toContain('accept-encoding')
  })

  it('sends the compressed index.html for a page route', async () => {
    const res = await get(page, '/podclubs/12', { 'accept-encoding': 'br' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(indexHtml)
  })

  it('does not compress on the fly a small file the build left plain', async () => {
    const res = await get(page, '/favicon.svg', { 'accept-encoding': 'br, gzip' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.body).toBe(favicon)
  })
})

describe('compression of the API', () => {
  it('compresses a large JSON answer with brotli or gzip, as the client accepts', async () => {
    const br = await get(page, '/api/v1/test/big/', { 'accept-encoding': 'gzip, br' })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(varyTokens(br)).toContain('accept-encoding')
    expect(br.rawPayload.length).toBeLessThan(JSON.stringify({ data: bigList }).length / 2)
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual({ data: bigList })

    const gz = await get(page, '/api/v1/test/big/', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual({ data: bigList })

    const plain = await get(page, '/api/v1/test/big/')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.json()).toEqual({ data: bigList })
  })

  it('sends a small answer as it is', async () => {
    const res = await get(page, '/api/v1/whoami/', { 'accept-encoding': 'br, gzip' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.json()).toEqual({ data: { isAuthenticated: false, user: null } })
  })

  it('compresses the OpenAPI document', async () => {
    const res = await get(page, '/api/openapi.json', { 'accept-encoding': 'br' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString())).toMatchObject({
      info: { title: 'podclub API' },
    })
  })
})

const PAGE_POLICY = "default-src 'self'"

function expectCommonHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['referrer-policy']).toBe('same-origin')
  expect(res.headers['x-frame-options']).toBe('DENY')
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin')
  const permissions = String(res.headers['permissions-policy'])
  for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'browsing-topics=()'])
    expect(permissions).toContain(feature)
  expect(res.headers['content-security-policy']).toEqual(expect.any(String))
}

describe('security headers', () => {
  it('go on every kind of answer', async () => {
    const answers = await Promise.all([
      get(page, '/home'),
      get(page, `/${ENTRY}`, { 'accept-encoding': 'br' }),
      get(page, '/api/v1/whoami/'),
      get(page, '/api/v1/no-such-call/'),
      get(page, '/api/docs/'),
      get(page, '/api/openapi.json'),
      get(page, '/healthz'),
    ])
    for (const res of answers) expectCommonHeaders(res)
  })

  it('give the page its policy, and anything that is not a page a policy that runs nothing', async () => {
    const home = await get(page, '/home')
    expect(home.headers['content-security-policy']).toContain(PAGE_POLICY)
    expect(home.headers['content-security-policy']).toContain("script-src 'self'")

    for (const url of ['/api/v1/whoami/', `/${ENTRY}`, '/api/openapi.json']) {
      const res = await get(page, url)
      expect(res.headers['content-security-policy'], url).toContain("default-src 'none'")
    }
  })

  it("leave a 304 without a policy, so the browser keeps the page's own", async () => {
    const first = await get(page, '/home')
    const validator: Record<string, string> = first.headers.etag
      ? { 'if-none-match': String(first.headers.etag) }
      : { 'if-modified-since': String(first.headers['last-modified']) }
    const again = await get(page, '/password-reset/some-token', validator)
    expect(again.statusCode).toBe(304)
    expect(again.headers['content-security-policy']).toBeUndefined()
    expect(again.headers['x-content-type-options']).toBe('nosniff')
  })

  it('give the API docs a policy of their own that lets Swagger UI run', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const res = await get(page, url)
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      const directives = String(res.headers['content-security-policy']).split('; ')
      // Nothing beyond what Swagger UI uses; it needs inline styles and data: icons, no eval.
      expect(directives).toEqual([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ])
    }
  })

  it('add HSTS only when APP_URL is https', async () => {
    for (const url of ['/home', '/api/v1/whoami/', '/api/v1/%E0%A4%A/']) {
      const secure = await get(securePage, url)
      expect(secure.headers['strict-transport-security'], url).toBe(
        'max-age=31536000; includeSubDomains',
      )
      const plain = await get(page, url)
      expect(plain.headers['strict-transport-security'], url).toBeUndefined()
    }
  })
})

describe('a URL that cannot be decoded', () => {
  it('answers 400 in the API error shape, with the security headers, under /api', async () => {
    const res = await get(page, '/api/v1/%E0%A4%A/')
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({ detail: 'Bad request.', code: 'BAD_REQUEST' })
    expect(res.headers['cache-control']).toBe('no-store')
    expectCommonHeaders(res)
    expect(res.headers['content-security-policy']).toContain("default-src 'none'")
  })

  it('answers a plain 400 page with the page headers elsewhere', async () => {
    const res = await get(page, '/podclubs/%E0%A4%A')
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('not valid')
    expectCommonHeaders(res)
    expect(res.headers['content-security-policy']).toContain(PAGE_POLICY)
  })
})
