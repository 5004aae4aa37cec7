import { waitFor } from '@testing-library/react'
import { lazy, Suspense } from 'react'
import type { Root } from 'react-dom/client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { whoamiResponseSchema, type SessionUser } from '#contract/auth'
import { getPodclubDetailResponseSchema, type PodclubDetail } from '#contract/podclub-detail'
import { listPodclubsResponseSchema } from '#contract/podclubs'
import { getProfileResponseSchema } from '#contract/profile'
import { podclubFixture } from './features/podclubs/testing'
import { expectConsoleError } from './testing/console'
import { member, profileOf, whoamiOf } from './testing/fixtures'
import { reply, replyError, mockApi, type Handlers } from './testing/mock-api'
import { homeHandlers, publicScreenHandlers } from './testing/render'

/**
 * Every server-rendered route, rendered by the server's render module and hydrated by the
 * page's own start with the same answers from the API: React must report no mismatch (it would
 * render the page anew, and `onRecoverableError` hears of it) and log no error.
 */

const upcoming = podclubFixture({
  id: 7,
  episode_title: 'The Cathedral',
  api_registered_usernames: { reserved: [member.username] },
})
const full = podclubFixture({ id: 8, episode_title: 'Full House', seats_left: 0 })

function detail(overrides: Partial<PodclubDetail> = {}): PodclubDetail {
  return {
    ...upcoming,
    episode_number: '12',
    podmeister: { username: 'maya.r', profile: { cred: 4 } },
    api_registered_usernames: { reserved: [{ username: member.username, cred: 2 }] },
    links: [],
    ...overrides,
  } as PodclubDetail
}

function answers(user: SessionUser | null, handlers: Handlers = {}): Handlers {
  return {
    getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(user) }),
    ...publicScreenHandlers,
    ...homeHandlers,
    listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [upcoming, full] }),
    getPodclubDetail: (request) =>
      request.params.podclubId === '7'
        ? reply(getPodclubDetailResponseSchema, { data: detail() })
        : request.params.podclubId === '9'
          ? reply(getPodclubDetailResponseSchema, {
              data: detail({
                id: 9,
                status: 'completed',
                hindsights: [{ username: 'maya.r', message: 'Great night.' }],
                chatlog: '',
              }),
            })
          : request.params.podclubId === '10'
            ? reply(getPodclubDetailResponseSchema, {
                data: detail({ id: 10, status: 'completed' }),
              })
            : replyError(404, { detail: 'Not found.' }),
    getProfile: () => reply(getProfileResponseSchema, { data: profileOf({ city: 'Brooklyn' }) }),
    ...handlers,
  }
}

let root: Root | undefined
afterEach(async () => {
  root?.unmount()
  root = undefined
  // React's scheduler finishes its last task before the next test's server render, which runs
  // with no window.
  await new Promise((resolve) => setTimeout(resolve, 0))
  delete document.documentElement.dataset.ready
  document.head.querySelectorAll('title').forEach((title) => title.remove())
})

/**
 * The server's render with one copy of the page's modules (React, the router, the cache), then
 * the browser's start with fresh ones: two processes, as in production, not two renderers of one
 * React sharing its contexts. The render runs with no `window` or `document`, as on the server:
 * a part that reads them while rendering fails here, and one that renders otherwise without them
 * (`typeof window`) is a mismatch.
 */
async function serverRender(path: string) {
  vi.resetModules()
  const { renderPage } = await import('./entry-server')
  const url = new URL(path, window.location.origin)
  vi.stubGlobal('window', undefined)
  vi.stubGlobal('document', undefined)
  let page
  try {
    page = await renderPage(url, (to, init) => fetch(new URL(to, url), init), {
      signal: new AbortController().signal,
    })
  } finally {
    vi.unstubAllGlobals()
  }
  await resetServerContexts()
  vi.resetModules()
  if (page.kind !== 'page') throw new Error(`${path} was not rendered on the server: ${page.kind}`)
  return page
}

/**
 * React's server renderer leaves the context values of the last part it resumed (one that had
 * suspended) in place once it is done: harmless in a server, but here the browser's renderer runs
 * next in the same process and would read them. A second server render of a part that suspends
 * at the root resumes with no context, and so puts every value back.
 */
async function resetServerContexts() {
  const { renderToPipeableStream } = await import('react-dom/server')
  const Nothing = lazy(() => Promise.resolve({ default: () => null }))
  await new Promise<void>((resolve, reject) => {
    renderToPipeableStream(
      <Suspense>
        <Nothing />
      </Suspense>,
      { onAllReady: () => resolve(), onShellError: reject },
    )
  })
}

async function hydrate(onRecoverableError: (error: unknown) => void) {
  // React's development build warns when its server and browser renderers meet in one process,
  // which a real page never does; the render above has finished by now.
  expectConsoleError(/Detected multiple renderers concurrently rendering the same context provider/)
  const { startPage } = await import('./start-page')
  return startPage({ onRecoverableError })
}

/** Renders `path` as the server does, puts it in the document, and hydrates it as the page does. */
async function renderOnServerAndHydrate(path: string, user: SessionUser | null) {
  mockApi(answers(user))
  const page = await serverRender(path)
  window.history.replaceState(null, '', path)
  document.head.insertAdjacentHTML('beforeend', page.head)
  document.body.innerHTML = `<div id="root">${page.body}</div>${page.stateScript}`
  const recovered: unknown[] = []
  root = await hydrate((error) => recovered.push(error))
  await waitFor(() => expect(document.documentElement).toHaveAttribute('data-ready'))
  return { page, recovered }
}

describe('a server-rendered page hydrates without a mismatch', () => {
  it.each([
    ['/home', null],
    ['/home', member],
    ['/', null],
    ['/podclubs/7', null],
    ['/podclubs/7', member],
    ['/podclubs/9', member],
    ['/about', null],
    ['/login', null],
    ['/forgot-password', null],
    ['/profile', member],
    ['/no-such-page', null],
    ['/podclubs/404', member],
    ['/podclubs/10', member],
    ['/podclubs/10', null],
  ] as const)('%s as %s', async (path, user) => {
    const { page, recovered } = await renderOnServerAndHydrate(path, user)
    expect(recovered).toEqual([])
    // The server's answer says what the page is.
    const expected =
      path === '/no-such-page' || path === '/podclubs/404'
        ? 404
        : path === '/podclubs/10'
          ? user
            ? 403
            : 401
          : 200
    expect(page.kind === 'page' && page.status).toBe(expected)
  })

  it("takes a kept page's data as of its navigation, not of its render: nothing is asked again on arrival", async () => {
    const api = mockApi(answers(null))
    const page = await serverRender('/home')
    window.history.replaceState(null, '', '/home')
    // Rendered a minute before it was sent: the feed counts fresh for 30 s from when it was read.
    const rendered = page.stateScript.replace(
      /"dataUpdatedAt":(\d+)/g,
      (_all, at: string) => `"dataUpdatedAt":${Number(at) - 60_000}`,
    )
    expect(rendered).not.toBe(page.stateScript)
    const asked = api.callsTo('listUpcomingPodclubs').length
    document.body.innerHTML = `<div id="root">${page.body}</div>${rendered}`
    root = await hydrate(() => {})
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-ready'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(api.callsTo('listUpcomingPodclubs')).toHaveLength(asked)
  })

  it('does not ask again on arrival for a podclub the server just sent', async () => {
    const api = mockApi(answers(null))
    const page = await serverRender('/podclubs/7')
    window.history.replaceState(null, '', '/podclubs/7')
    const asked = api.callsTo('getPodclubDetail').length
    document.body.innerHTML = `<div id="root">${page.body}</div>${page.stateScript}`
    root = await hydrate(() => {})
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-ready'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(api.callsTo('getPodclubDetail')).toHaveLength(asked)
  })

  it('hears of a page whose first render in the browser differs from the server', async () => {
    // The server rendered a seat more than the browser's data says: React must say so.
    mockApi(answers(member))
    const page = await serverRender('/podclubs/7')
    window.history.replaceState(null, '', '/podclubs/7')
    const changed = page.stateScript.replace('"seats_left":', '"seats_left":1')
    expect(changed).not.toBe(page.stateScript)
    document.body.innerHTML = `<div id="root">${page.body}</div>${changed}`
    const recovered: unknown[] = []
    root = await hydrate((error) => recovered.push(error))
    await waitFor(() => expect(recovered.length).toBeGreaterThan(0))
  })
})

describe('what the server learns of a rendered page, to keep it for everyone', () => {
  it('asks who the viewer is first on every screen, and not on the not-found page of an address that is no page', async () => {
    vi.resetModules()
    const { asksViewerFirst } = await import('./entry-server')
    const at = (path: string) => asksViewerFirst(new URL(path, window.location.origin))
    for (const path of [
      '/',
      '/home',
      '/podclubs/7',
      '/podclubs/abc',
      '/about',
      '/login',
      '/profile',
    ]) {
      expect(at(path), path).toBe(true)
    }
    // Not rendered on the server at all, or nothing to ask.
    for (const path of ['/propose', '/no-such-page']) expect(at(path), path).toBe(false)
  })

  it("says when the page changes by the clock (a podclub's start) and whether it drew random touches", async () => {
    mockApi(answers(null))
    const visitorHome = await serverRender('/home')
    expect(visitorHome.kind === 'page' && visitorHome).toMatchObject({
      changesAt: Date.parse(upcoming.starts_at),
      seeded: true,
    })
    mockApi(answers(member))
    const memberHome = await serverRender('/home')
    // A member's feed has no join card: no seed, one render kept for them.
    expect(memberHome.kind === 'page' && memberHome.seeded).toBe(false)
    expect(memberHome.kind === 'page' && memberHome.stateScript).toContain('"seed":0')
    mockApi(answers(null))
    const about = await serverRender('/about')
    expect(about.kind === 'page' && about).toMatchObject({ changesAt: null, seeded: false })
  })
})
