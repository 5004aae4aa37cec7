import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatClubDateTime } from '#contract/club-time'
import { buildApp, type App } from '../app'
import { podclubs } from '../db/schema/index'
import { insertPodclub } from '../features/podclubs/podclubs.fixtures'
import { operatorAgent } from '../features/polls/polls.testing'
import { standInBuild, standInRenders } from '../testing/render-module'
import { PAGE_VARIANTS } from './page-cache'
import { createUser, loggedInMember, type TestApp } from '../testing/test-app'
import { openTwoApps } from '../testing/two-apps'

/**
 * A page kept for every visitor shows a write the moment it is acknowledged, whichever process
 * made it (docs/decisions/032): pages are read from one app instance and the writes are made
 * through another on the same database, as two processes would, on PGlite and on PostgreSQL.
 * Before each write the page is read again and again and rendered no more than once per variant
 * (a visitor's home is kept in `PAGE_VARIANTS`), so what is checked after it are kept pages, each
 * variant of them.
 */

let a: TestApp
let b: TestApp
let close: () => Promise<void>
let build: Awaited<ReturnType<typeof standInBuild>>
let pages: App
let podclubId: number

beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
  build = await standInBuild()
  pages = await buildApp(a.deps, {
    serveClient: true,
    clientDir: build.clientDir,
    renderModule: build.renderModule,
  })
  await pages.ready()
  const host = await createUser(a)
  podclubId = (
    await insertPodclub(a.db, host.id, {
      episodeTitle: 'The Sound of a Shrinking Room',
      description: 'What we do with ideas once they take hold.',
      location: 'zoom',
    })
  ).id
})
afterAll(async () => {
  await pages?.close()
  await close?.()
  await build?.remove()
})

const READS = 16

/** A visitor's page read `READS` times, each variant of it rendered once at most. */
async function readAll(url: string) {
  const bodies = []
  for (let i = 0; i < READS; i++) {
    const res = await pages.inject({ method: 'GET', url })
    expect(res.statusCode, url).toBe(200)
    bodies.push(res.body)
  }
  return bodies
}

/**
 * Reads after the last render before a page counts as kept in every variant: a variant is
 * picked at random, so one not yet rendered is missed this long with a chance of (3/4)^48.
 */
const QUIET_READS = 48

/** A visitor's page, read until each of its variants is kept: its HTML. */
async function keptPage(path: string, query = '') {
  const renders = standInRenders(path)
  let body = ''
  let lastRender = standInRenders(path)
  for (let quiet = 0; quiet < QUIET_READS; quiet++) {
    const res = await pages.inject({ method: 'GET', url: `${path}${query}` })
    expect(res.statusCode, path).toBe(200)
    body = res.body
    if (standInRenders(path) !== lastRender) {
      lastRender = standInRenders(path)
      quiet = 0
    }
  }
  expect(standInRenders(path) - renders, `${path}${query} was kept`).toBeLessThanOrEqual(
    PAGE_VARIANTS,
  )
  return body
}

/** Each variant of the page, as a visitor gets it now, with its random touches left out. */
const read = async (url: string) => {
  const shown = new Set(
    (await readAll(url)).map((body) => body.replace(/<p class="join">\d+<\/p>/, '')),
  )
  expect([...shown], url).toHaveLength(1)
  return [...shown][0]!
}

describe("a visitor's kept page, after a write through another process", () => {
  it('shows a seat taken and given back', async () => {
    const podclub = `/podclubs/${podclubId}`
    expect(await keptPage('/home', '?seat')).toContain('9 seats left')
    expect(await keptPage(podclub)).toContain('<dd>9 seats left</dd>')
    const { agent } = await loggedInMember(b, { on: b })
    const taken = await agent.post(`/api/v1/register/${podclubId}/`)
    expect(taken.json()).toMatchObject({ data: { registered: true, seats_left: 8 } })
    expect(await read('/home?seat')).toContain(
      'The Sound of a Shrinking Room · zoom · 8 seats left',
    )
    expect(await read(podclub)).toContain('<dd>8 seats left</dd>')

    await keptPage(podclub)
    await agent.post(`/api/v1/register/${podclubId}/`)
    expect(await read(podclub)).toContain('<dd>9 seats left</dd>')
  })

  it('shows a seat taken in a podclub whose versions were known before its page was rendered', async () => {
    // The feed and the host's other podclub are read first: the versions of the new podclub's
    // seats and of its host's are known (on PGlite, without asking) when its page is rendered,
    // and the page must still stand on them.
    const host = await createUser(a)
    const other = await insertPodclub(a.db, host.id, { episodeTitle: 'The First of Two' })
    const { id } = await insertPodclub(a.db, host.id, {
      episodeTitle: 'The Second of Two',
      location: 'zoom',
    })
    await keptPage('/home', '?known')
    await keptPage(`/podclubs/${other.id}`)
    expect(await keptPage(`/podclubs/${id}`)).toContain('<dd>9 seats left</dd>')
    const { agent } = await loggedInMember(b, { on: b })
    const taken = await agent.post(`/api/v1/register/${id}/`)
    expect(taken.json()).toMatchObject({ data: { registered: true, seats_left: 8 } })
    expect(await read(`/podclubs/${id}`)).toContain('<dd>8 seats left</dd>')
    expect(await read('/home?known')).toContain('The Second of Two · zoom · 8 seats left')
  })

  it('shows a new podclub', async () => {
    expect(await keptPage('/home', '?new')).not.toContain('A Podclub Just Proposed')
    const operator = await operatorAgent(b)
    const host = await createUser(b)
    const made = await operator.post('/api/v1/controlpanel/podclubs/', {
      title: 'A Podclub Just Proposed',
      podcastName: 'Radiolab',
      keywordOne: 'science',
      keywordTwo: 'sound',
      keywordThree: 'stories',
      linkOne: 'https://example.com/episode',
      scheduledStart: formatClubDateTime(new Date(Date.now() + 3 * 86_400_000)),
      description: 'A long enough description of the episode for the club to read first.',
      podmeisterNote: 'A long enough note from the podmeister about why this one is good.',
      location: 'zoom',
      podmeister: host.username,
      zoomLink: 'https://zoom.us/j/123456',
    })
    expect(made.statusCode, made.body).toBe(201)
    expect(await read('/home?new')).toContain('A Podclub Just Proposed')
  })

  it('shows an edited text', async () => {
    const podclub = `/podclubs/${podclubId}`
    expect(await keptPage('/home', '?text')).toContain('The Sound of a Shrinking Room · zoom')
    expect(await keptPage(podclub)).toContain('What we do with ideas once they take hold.')

    // An operator moves it to New York: the cards and the page say where.
    const operator = await operatorAgent(b)
    const moved = await operator.request(`/api/v1/controlpanel/podclubs/${podclubId}/`, {
      method: 'PATCH',
      body: { location: 'nyc' },
    })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(await read('/home?text')).toContain('The Sound of a Shrinking Room · nyc')

    // Its title and description are written again (committed: acknowledged).
    await keptPage(podclub)
    await b.db
      .update(podclubs)
      .set({ episodeTitle: 'The Room Grows Again', description: 'A new description.' })
      .where(eq(podclubs.id, podclubId))
    const page = await read(podclub)
    expect(page).toContain('<h1>The Room Grows Again</h1>')
    expect(page).toContain('A new description.')
    expect(await read('/home?text')).toContain('The Room Grows Again · nyc')
  })

  it('is not rendered again for a write it does not show (a login)', async () => {
    await keptPage('/home', '?login')
    await keptPage('/about')
    const renders = standInRenders('/home') + standInRenders('/about')
    await loggedInMember(b, { on: b })
    await read('/home?login')
    await read('/about')
    expect(standInRenders('/home') + standInRenders('/about')).toBe(renders)
  })
})
