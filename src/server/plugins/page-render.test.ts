import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../app'
import { buildTestApp, createAgent, createUser, type TestApp } from '../testing/test-app'

/**
 * How the server sends a page whose first screen the build's render module renders: the module's
 * API requests reach the app's own routes as the visitor, what they set comes along, and any
 * trouble with the module gives the shell, never an error page. The module here is a small
 * stand-in with the build's interface (src/client/entry-server.tsx); the real one is exercised
 * in the browser (e2e/server-rendered.spec.ts).
 */

const INLINE_SCRIPT = 'window.early = true'
const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><script>${INLINE_SCRIPT}</script><title>podclub</title>
<script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`

const RENDER_MODULE = `
export async function renderPage(url, send, { signal }) {
  if (url.pathname === '/throws') throw new Error('render failed')
  if (url.pathname === '/hangs') {
    signal.addEventListener('abort', () => { globalThis.renderAborted = signal.reason.message })
    return new Promise(() => {})
  }
  if (url.pathname === '/shell') return { kind: 'shell' }
  if (url.pathname === '/elsewhere') return { kind: 'redirect', status: 302, location: '/home' }
  const whoami = await (await send('/api/v1/whoami/', { method: 'GET' })).json()
  const who = whoami.data.user ? whoami.data.user.username : 'a visitor'
  return {
    kind: 'page',
    status: 200,
    head: '<title>$& and $1 · podclub</title><meta name="robots" content="noindex">',
    body: '<main><p>rendered for ' + who + " at " + url.pathname + url.search + "</p><p>$' $&</p></main>",
    stateScript: '<script type="application/json" id="server-state">{"at":"' + url.pathname + '"}</script>',
  }
}
`

let t: TestApp
let dir: string
let page: App

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'podclub-render-'))
  await writeFile(path.join(dir, 'index.html'), SHELL)
  await writeFile(path.join(dir, 'render.mjs'), RENDER_MODULE)
  t = await buildTestApp()
  page = await buildApp(t.deps, {
    serveClient: true,
    clientDir: dir,
    renderModule: path.join(dir, 'render.mjs'),
  })
  await page.ready()
})
afterAll(async () => {
  await page?.close()
  await t?.close()
  await rm(dir, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = {}) =>
  page.inject({ method: 'GET', url, headers })

describe('a page rendered on the server', () => {
  it("puts the screen into the shell's #root, its title and tags into the head, and the state after it", async () => {
    const res = await get('/somewhere?x=1')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('private, no-cache')
    expect(res.headers['content-security-policy']).toContain("script-src 'self'")
    // `$&`, `$1` and `$'` are text here, not replacement patterns.
    expect(res.body).toContain(
      '<title>$& and $1 · podclub</title>\n<script type="module" src="/assets/index.js"></script><meta name="robots" content="noindex"></head>',
    )
    expect(res.body.match(/<title>/g)).toHaveLength(1)
    expect(res.body).toContain(
      '<div id="root"><main><p>rendered for a visitor at /somewhere?x=1</p><p>$\' $&</p></main></div><script type="application/json" id="server-state">{"at":"/somewhere"}</script></body>',
    )
  })

  it("asks the API as the visitor: a member's page is rendered for them", async () => {
    const user = await createUser(t)
    const agent = createAgent(page)
    await agent.login(user.username, user.password)
    const res = await agent.get('/somewhere')
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain(`rendered for ${user.username} at /somewhere`)
  })

  it('passes on the cookies the API set: a new visitor gets the CSRF cookie with the page', async () => {
    const res = await get('/somewhere')
    const cookies = [res.headers['set-cookie']].flat().join('\n')
    expect(cookies).toMatch(/^csrftoken=/m)
  })

  it('sends the redirect the screen asks for', async () => {
    const res = await get('/elsewhere')
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/home')
  })

  it('compresses the page for a browser that accepts it, and not for one that refuses', async () => {
    const br = await get('/somewhere', { 'accept-encoding': 'gzip, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('accept-encoding')
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('rendered for a visitor')
    const gzip = await get('/somewhere', { 'accept-encoding': 'br;q=0, gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    const none = await get('/somewhere', { 'accept-encoding': 'br;q=0, gzip;q=0.0' })
    expect(none.headers['content-encoding']).toBeUndefined()
    expect(none.body).toContain('rendered for a visitor')
  })

  it('sends the shell as it is for a screen the browser renders, a failed or a slow render, and HEAD', async () => {
    for (const url of ['/shell', '/throws', '/hangs']) {
      const res = await get(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).toBe(SHELL)
    }
    // The slow render was told to stop, not left running beside the shell.
    expect((globalThis as { renderAborted?: string }).renderAborted).toMatch(/took over 2000 ms/)
    const head = await page.inject({ method: 'HEAD', url: '/somewhere' })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-type']).toMatch(/^text\/html/)
  })

  it("lets the page's own inline scripts run by their hashes, and no other inline script", async () => {
    const hash = createHash('sha256').update(INLINE_SCRIPT).digest('base64')
    for (const url of ['/somewhere', '/shell']) {
      const policy = (await get(url)).headers['content-security-policy']
      expect(String(policy).match(/script-src [^;]*/)?.[0], url).toBe(
        `script-src 'self' 'sha256-${hash}'`,
      )
    }
  })

  it('shows the page again for a form the browser sent itself, its code not running', async () => {
    const res = await page.inject({
      method: 'POST',
      url: '/login?next=/home',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=maya&password=secret',
    })
    expect(res.statusCode).toBe(303)
    expect(res.headers.location).toBe('/login?next=/home')
  })

  it('leaves the API alone: an unknown API path is a JSON 404', async () => {
    const res = await get('/api/v1/no-such-thing/')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('starts and sends the shell when the render module cannot be loaded', async () => {
    const broken = path.join(dir, 'broken.mjs')
    await writeFile(broken, 'export const renderPage = ;')
    const app = await buildApp(t.deps, { serveClient: true, clientDir: dir, renderModule: broken })
    try {
      const res = await app.inject({ method: 'GET', url: '/somewhere' })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe(SHELL)
    } finally {
      await app.close()
    }
  })
})
