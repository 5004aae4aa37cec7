import { fileURLToPath } from 'node:url'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from './testing/test-app'

/**
 * `npm run dev` renders pages on the server as production does (vite.config.ts,
 * `devServerRender`): Vite's development server, its API requests sent to a running API.
 */

let t: TestApp
let vite: ViteDevServer
let origin: string

beforeAll(async () => {
  t = await buildTestApp()
  const api = await t.app.listen({ port: 0, host: '127.0.0.1' })
  process.env.DEV_API_ORIGIN = api
  vite = await createServer({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    logLevel: 'silent',
  })
  await vite.listen()
  const address = vite.httpServer?.address()
  if (!address || typeof address === 'string') throw new Error('the dev server did not listen')
  origin = `http://127.0.0.1:${address.port}`
}, 60_000)
afterAll(async () => {
  delete process.env.DEV_API_ORIGIN
  await vite?.close()
  await t?.close()
})

const page = (path: string) => fetch(`${origin}${path}`, { headers: { accept: 'text/html' } })

describe('the development server', () => {
  it("renders a page on the server into Vite's own index.html, with its client", async () => {
    const answer = await page('/about')
    expect(answer.status).toBe(200)
    const html = await answer.text()
    expect(html).toContain('<title>about · podclub</title>')
    expect(html).toMatch(/<h1[^>]*>about<\/h1>/)
    expect(html).toContain('id="server-state"')
    expect(html).toContain('/@vite/client')
    // The API's CSRF cookie comes with the page, as in production.
    expect(answer.headers.getSetCookie().join(';')).toContain('csrftoken=')
  }, 60_000)

  it('answers an address that is no page with 404, and leaves a screen the browser renders to Vite', async () => {
    const missing = await page('/no-such-page')
    expect(missing.status).toBe(404)
    expect(await missing.text()).toContain('Page Not Found')
    const shell = await page('/propose')
    expect(shell.status).toBe(200)
    expect(await shell.text()).not.toContain('id="server-state"')
  }, 60_000)
})
