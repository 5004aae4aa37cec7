import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../app'
import { hindsights, podclubs, registrations } from '../db/schema/index'
import { insertPodclub } from '../features/podclubs/podclubs.fixtures'
import { standInBuild, standInRenders } from '../testing/render-module'
import { buildTestApp, createAgent, createUser, type TestApp } from '../testing/test-app'
import type { PageCacheOptions } from './page-cache'

/**
 * Pages kept for every viewer the API describes the same way (docs/decisions/032): rendered once
 * per key while what they read stands, sent with the request's own cookies and nothing else of
 * it, and exactly as before for whatever may not be kept. `today` is the same app keeping no
 * page, as every page was sent before. The render module is a stand-in with the real screens'
 * reads (testing/render-module.ts); freshness across writes is page-cache.freshness.test.ts.
 */

let t: TestApp
let build: Awaited<ReturnType<typeof standInBuild>>
let kept: App
let today: App

const pageApp = (pageCache?: PageCacheOptions | false) =>
  buildApp(t.deps, {
    serveClient: true,
    clientDir: build.clientDir,
    renderModule: build.renderModule,
    pageCache,
  })

beforeAll(async () => {
  t = await buildTestApp()
  build = await standInBuild()
  kept = await pageApp()
  today = await pageApp(false)
  await Promise.all([kept.ready(), today.ready()])
  const host = await createUser(t)
  await insertPodclub(t.db, host.id, { episodeTitle: 'The Cathedral' })
})
afterAll(async () => {
  await kept?.close()
  await today?.close()
  await t?.close()
  await build?.remove()
})

const get = (app: App, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers })

/** What is the request's own in an answer: its id, when it was sent, its cookie's value. */
const PER_REQUEST = new Set(['x-request-id', 'date', 'set-cookie'])
function headersBut(res: LightMyRequestResponse, also: string[] = []) {
  return Object.fromEntries(
    Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name) && !also.includes(name)),
  )
}
/** A Set-Cookie line without its value: the name and the attributes. */
const cookieShape = (line: unknown) => String(line).replace(/=[^;]*/, '=…')
const cookieValue = (line: unknown) => /^[^=]+=([^;]*)/.exec(String(line))?.[1] ?? ''

describe("a visitor's page", () => {
  it('is rendered once while what it shows stands, and sent as before, with the cookie whoami gives', async () => {
    const before = standInRenders('/about')
    const first = await get(kept, '/about', { 'x-request-id': 'first-request-0001' })
    const second = await get(kept, '/about', { 'x-request-id': 'second-request-0002' })
    const old = await get(today, '/about')
    expect(standInRenders('/about') - before).toBe(2) // one kept, one of `today`
    expect(first.statusCode).toBe(200)
    expect(second.body).toBe(first.body)
    expect(second.body).toBe(old.body)
    expect(headersBut(second)).toEqual(headersBut(old))
    expect(second.headers['x-request-id']).toBe('second-request-0002')
    expect(second.headers['cache-control']).toBe('private, no-cache')
    expect(second.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/)

    // Each visitor without a CSRF cookie gets one of their own, as whoami gives it.
    expect(cookieShape(second.headers['set-cookie'])).toBe(cookieShape(old.headers['set-cookie']))
    expect(cookieShape(second.headers['set-cookie'])).toBe(
      'csrftoken=…; Max-Age=31536000; Path=/; SameSite=Lax',
    )
    const tokens = [first, second].map((res) => cookieValue(res.headers['set-cookie']))
    expect(tokens[0]).not.toBe(tokens[1])
    // Nothing of a request is in the page everyone gets.
    for (const own of [...tokens, 'first-request-0001', 'second-request-0002']) {
      expect(second.body).not.toContain(own)
    }
  })

  it('keeps the CSRF cookie a visitor holds, and replaces one that is not valid, as whoami does', async () => {
    await get(kept, '/about')
    const given = cookieValue((await get(kept, '/about')).headers['set-cookie'])
    for (const app of [kept, today]) {
      const valid = await get(app, '/about', { cookie: `csrftoken=${given}` })
      expect(valid.headers['set-cookie']).toBeUndefined()
      const forged = await get(app, '/about', { cookie: `csrftoken=${given}x` })
      expect(cookieShape(forged.headers['set-cookie'])).toMatch(/^csrftoken=…;/)
    }
  })

  it('is kept per address, its query included: the seat buttons send a visitor back to it', async () => {
    for (const query of ['?from=a', '?from=b', '?from=a']) {
      const body = (await get(kept, `/home${query}`)).body
      expect(body).toContain(`next=${encodeURIComponent(`/home${query}`)}`)
    }
  })

  it('is rendered once for requests arriving together', async () => {
    const before = standInRenders('/home')
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => get(kept, '/home?arriving=together')),
    )
    expect(standInRenders('/home') - before).toBe(1)
    expect(new Set(answers.map((res) => res.body)).size).toBe(1)
    expect(answers[0]!.body).toContain('The Cathedral')
  })

  it('with random touches, is kept in a few renders of its own, one of them sent at random', async () => {
    const before = standInRenders('/home')
    const bodies = new Set<string>()
    for (let i = 0; i < 40; i++) bodies.add((await get(kept, '/home?touches=random')).body)
    expect(bodies.size).toBeGreaterThan(1)
    expect(bodies.size).toBeLessThanOrEqual(4)
    expect(standInRenders('/home') - before).toBe(bodies.size)
  })

  it('is compressed once for everyone, in the encoding each browser accepts', async () => {
    const plain = (await get(kept, '/about')).body
    const br = await get(kept, '/about', { 'accept-encoding': 'gzip, deflate, br' })
    const again = await get(kept, '/about', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toBe('accept-encoding')
    expect(again.rawPayload.equals(br.rawPayload)).toBe(true)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain)
    const gzip = await get(kept, '/about', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain)
    const old = await get(today, '/about', { 'accept-encoding': 'gzip, deflate, br' })
    expect(headersBut(br, ['content-length'])).toEqual(headersBut(old, ['content-length']))

    // Kept in brotli alone once made, and inflated again for a client that takes no compression.
    const renders = standInRenders('/login')
    await get(kept, '/login', { 'accept-encoding': 'br' })
    const inflated = await get(kept, '/login')
    expect(inflated.headers['content-encoding']).toBeUndefined()
    expect(inflated.body).toBe((await get(today, '/login')).body)
    expect(standInRenders('/login') - renders).toBe(2) // one kept, one of `today`
  })
})

describe("a member's page", () => {
  it('is kept for that member alone, and sent with what their session sets', async () => {
    const members = await Promise.all(
      [0, 1].map(async () => {
        const user = await createUser(t)
        const agent = createAgent(kept)
        await agent.login(user.username, user.password)
        return { user, agent }
      }),
    )
    const before = standInRenders('/home')
    const pages = []
    for (const { agent } of [...members, ...members]) pages.push(await agent.get('/home'))
    expect(standInRenders('/home') - before).toBe(2)
    expect(pages[0]!.body).toContain(`for ${members[0]!.user.username}`)
    expect(pages[1]!.body).toContain(`for ${members[1]!.user.username}`)
    expect(pages[2]!.body).toBe(pages[0]!.body)
    expect(pages[3]!.body).toBe(pages[1]!.body)
    expect((await get(kept, '/home')).body).toContain('for a visitor')

    // A member whose browser lost its CSRF cookie gets one bound to their session, as before.
    const session = `sessionid=${members[0]!.agent.jar.get('sessionid')!.value}`
    for (const app of [kept, today]) {
      const res = await get(app, '/home', { cookie: session })
      expect(cookieShape(res.headers['set-cookie'])).toBe(
        'csrftoken=…; Max-Age=31536000; Path=/; SameSite=Lax',
      )
    }
  })

  it('reading what no version stands for (the profile, hindsights) is rendered for each request', async () => {
    const user = await createUser(t)
    const agent = createAgent(kept)
    await agent.login(user.username, user.password)
    let before = standInRenders('/profile')
    await agent.get('/profile')
    await agent.get('/profile')
    expect(standInRenders('/profile') - before).toBe(2)

    // A completed podclub's page for one who took part carries its hindsights.
    const podclub = await insertPodclub(t.db, user.id, {
      status: 'completed',
      startsAt: new Date(Date.now() - 86_400_000),
      completedAt: new Date(),
    })
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: user.id })
    await t.db
      .insert(hindsights)
      .values({ podclubId: podclub.id, userId: user.id, message: 'A first thought.' })
    const path = `/podclubs/${podclub.id}`
    before = standInRenders(path)
    const first = await agent.get(path)
    expect(first.body).toContain('A first thought.')
    await t.db
      .insert(hindsights)
      .values({ podclubId: podclub.id, userId: user.id, message: 'A second thought.' })
    expect((await agent.get(path)).body).toContain('A second thought.')
    expect(standInRenders(path) - before).toBe(2)
  })
})

describe('what may not be kept', () => {
  it('a 404, a refusal and a redirect are rendered for each request and answered as before', async () => {
    const host = await createUser(t)
    const gated = await insertPodclub(t.db, host.id, {
      status: 'completed',
      startsAt: new Date(Date.now() - 86_400_000),
      completedAt: new Date(),
    })
    const member = createAgent(kept)
    const user = await createUser(t)
    await member.login(user.username, user.password)
    const cases: [string, number, ((url: string) => Promise<LightMyRequestResponse>)?][] = [
      ['/no-such-page', 404],
      ['/podclubs/abc', 404],
      ['/podclubs/999999', 404],
      [`/podclubs/${gated.id}`, 401],
      [`/podclubs/${gated.id}`, 403, (url) => member.get(url)],
      ['/login', 302, (url) => member.get(url)],
    ]
    for (const [url, status, ask = (u: string) => get(kept, u)] of cases) {
      const before = standInRenders(new URL(url, 'http://x').pathname)
      const [first, second] = [await ask(url), await ask(url)]
      expect(standInRenders(new URL(url, 'http://x').pathname) - before, url).toBe(2)
      expect([first.statusCode, second.statusCode], url).toEqual([status, status])
    }
    // The same headers as when no page was kept: the not-found page of an address that is no
    // page asks nothing, so it sets no cookie; a bad id asks whoami first, so it does.
    for (const url of ['/no-such-page', '/podclubs/abc', `/podclubs/${gated.id}`]) {
      const [now, old] = [await get(kept, url), await get(today, url)]
      expect(headersBut(now), url).toEqual(headersBut(old))
      expect(now.headers['set-cookie'] === undefined, url).toBe(
        old.headers['set-cookie'] === undefined,
      )
      expect(now.body, url).toBe(old.body)
    }
    expect((await get(kept, '/no-such-page')).headers['set-cookie']).toBeUndefined()
  })
})

describe('the pages kept', () => {
  it('are no more than their bounds, the least recently served going first', async () => {
    const small = await pageApp({ maxPages: 2 })
    try {
      const renders = () => standInRenders('/about') + standInRenders('/login')
      const before = renders()
      for (const url of ['/about', '/login', '/about', '/login']) await get(small, url)
      expect(renders() - before).toBe(2)
      await get(small, '/home')
      await get(small, '/login')
      expect(renders() - before).toBe(2)
      await get(small, '/about')
      expect(renders() - before).toBe(3)
    } finally {
      await small.close()
    }
    const tiny = await pageApp({ maxBytes: 100 })
    try {
      const before = standInRenders('/about')
      await get(tiny, '/about')
      await get(tiny, '/about')
      expect(standInRenders('/about') - before).toBe(2)
    } finally {
      await tiny.close()
    }
  })

  it('are rendered again once a podclub they show starts, and after their longest age', async () => {
    const host = await createUser(t)
    const soon = await insertPodclub(t.db, host.id, { startsAt: new Date(Date.now() + 1_500) })
    const path = `/podclubs/${soon.id}`
    const before = standInRenders(path)
    await get(kept, path)
    await get(kept, path)
    expect(standInRenders(path) - before).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1_600))
    await get(kept, path)
    expect(standInRenders(path) - before).toBe(2)
    await t.db.delete(podclubs).where(eq(podclubs.id, soon.id))

    // Past its age, it is still sent while one render makes it again; then that one is sent.
    const brief = await pageApp({ maxAgeMs: 200 })
    try {
      const from = standInRenders('/about')
      const first = (await get(brief, '/about?stamp')).body
      expect(standInRenders('/about') - from).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 250))
      // (A request arriving meanwhile may get either: on PostgreSQL it waits for its own read of
      // the versions, by which time the new one may be kept.)
      expect((await get(brief, '/about?stamp')).body).toBe(first)
      expect(standInRenders('/about') - from).toBe(2)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect((await get(brief, '/about?stamp')).body).not.toBe(first)
      expect(standInRenders('/about') - from).toBe(2)
    } finally {
      await brief.close()
    }
  })
})
