import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

/**
 * A stand-in for the build's render module (src/client/entry-server.tsx) with its interface and
 * its screens' reads, for the server's tests of kept pages: it asks the API what the real screens
 * ask (whoami first, then the feed, a podclub's detail, the config or the profile) and writes
 * what they show of it (titles, texts, seats), so a page that is not fresh shows it. Each render
 * is counted by address in `globalThis.standInRenders`.
 */
const RENDER_MODULE = `
const counts = (globalThis.standInRenders ??= new Map())

const SCREENS = [/^\\/home$/, /^\\/about$/, /^\\/login$/, /^\\/profile$/, /^\\/podclubs\\/[^/]+$/]

export function asksViewerFirst(url) {
  return SCREENS.some((screen) => screen.test(url.pathname))
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';')
const seats = (p) => p.seats_left + ' seats left'

function page(status, title, body, { changesAt = null, seeded = false } = {}) {
  return {
    kind: 'page',
    status,
    head: '<title>' + escape(title) + ' · podclub</title>',
    body: '<main>' + body + '</main>',
    stateScript: '<script type="application/json" id="server-state">{}</script>',
    changesAt,
    seeded,
  }
}

async function read(send, url) {
  const res = await send(url, { method: 'GET' })
  return { status: res.status, body: res.status === 200 ? (await res.json()).data : null }
}

function soonestStart(podclubs) {
  const now = Date.now()
  const later = podclubs.map((p) => Date.parse(p.starts_at)).filter((at) => at > now)
  return later.length > 0 ? Math.min(...later) : null
}

export async function renderPage(url, send) {
  counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1)
  if (!asksViewerFirst(url)) return page(404, 'Page Not Found', 'Page Not Found')
  const { body: whoami } = await read(send, '/api/v1/whoami/')
  if (!whoami) return { kind: 'shell' }
  const user = whoami.user
  const who = user ? 'for ' + escape(user.username) : 'for a visitor'
  if (url.pathname === '/login') {
    if (user) return { kind: 'redirect', status: 302, location: '/home' }
    return page(200, 'login', '<form>log in ' + who + '</form>')
  }
  if (url.pathname === '/about') {
    const { body: config } = await read(send, '/api/v1/config/')
    // With ?stamp, which render this is: tells one render from the next.
    const stamp = url.searchParams.has('stamp') ? '<p>render ' + counts.get('/about') + '</p>' : ''
    return page(200, 'about', '<p>' + who + ', write to ' + escape(config.contact_email) + '</p>' + stamp)
  }
  if (url.pathname === '/profile') {
    if (!user) return { kind: 'redirect', status: 302, location: '/home' }
    const { body: profile } = await read(send, '/api/v1/profile/')
    return page(200, 'profile', '<p>' + who + ', cred ' + profile.cred + '</p>')
  }
  if (url.pathname === '/home') {
    const [{ body: feed }] = await Promise.all([
      read(send, '/api/v1/all_upcoming_podclubs/'),
      read(send, '/api/v1/config/'),
    ])
    // A visitor's feed has random touches (the join card), as the real one.
    const seed = user ? '' : '<p class="join">' + Math.floor(Math.random() * 1e9) + '</p>'
    const cards = feed.map(
      (p) => '<li>' + escape(p.episode_title) + ' · ' + escape(p.location) + ' · ' + seats(p) + '</li>',
    )
    // A visitor's seat buttons send them to log in and back to this address, query and all.
    const back = '<a href="/login?next=' + encodeURIComponent(url.pathname + url.search) + '">login</a>'
    return page(200, 'home', '<p>' + who + '</p>' + seed + back + '<ul>' + cards.join('') + '</ul>', {
      changesAt: soonestStart(feed),
      seeded: !user,
    })
  }
  const id = url.pathname.split('/')[2]
  if (!/^[1-9][0-9]*$/.test(id)) return page(404, 'Page Not Found', 'Page Not Found')
  const [detail] = await Promise.all([
    read(send, '/api/v1/podclubs/' + id + '/'),
    read(send, '/api/v1/config/'),
  ])
  if (detail.status === 404) return page(404, 'Page Not Found', 'Page Not Found')
  const p = detail.body
  if (p.status === 'completed' && p.hindsights === undefined) {
    return page(user ? 403 : 401, 'not yet', 'Only those who took part can read it.')
  }
  const hindsights = (p.hindsights ?? []).map((h) => '<li>' + escape(h.message) + '</li>')
  return page(
    200,
    p.episode_title,
    '<h1>' + escape(p.episode_title) + '</h1><p>' + escape(p.description) + '</p><dd>' +
      seats(p) + '</dd><p>' + who + '</p><ul>' + hindsights.join('') + '</ul>',
    { changesAt: soonestStart([p]) },
  )
}
`

/** The shell the stand-in renders into, with an inline script of its own (the early taps). */
export const STAND_IN_SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><script>window.early = true</script><title>podclub</title>
<script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`

/** A built page's folder with the stand-in shell and render module; `remove` deletes it. */
export async function standInBuild() {
  const dir = await mkdtemp(path.join(tmpdir(), 'podclub-kept-pages-'))
  await writeFile(path.join(dir, 'index.html'), STAND_IN_SHELL)
  await writeFile(path.join(dir, 'render.mjs'), RENDER_MODULE)
  return {
    clientDir: dir,
    renderModule: path.join(dir, 'render.mjs'),
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}

/** How many times the stand-in rendered `pathname`, in this worker. */
export function standInRenders(pathname: string): number {
  const counts = (globalThis as { standInRenders?: Map<string, number> }).standInRenders
  return counts?.get(pathname) ?? 0
}
