import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  getRandomPastPodclubResponseSchema,
  listPastPodclubsResponseSchema,
  listPodclubsResponseSchema,
} from '#contract/podclubs'
import { podclubs, registrations } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { pickEncoding } from '../../lib/content-encoding'
import { insertPodclub } from './podclubs.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const DAY = 24 * 3600 * 1000

describe('GET /all_upcoming_podclubs/', () => {
  it('lists upcoming podclubs soonest first in the contract shape, without the others', async () => {
    const host = await createUser(t)
    const later = await insertPodclub(t.db, host.id, { startsAt: new Date(Date.now() + 9 * DAY) })
    const sooner = await insertPodclub(t.db, host.id, { startsAt: new Date(Date.now() + 2 * DAY) })
    const gone = await insertPodclub(t.db, host.id, { status: 'cancelled' })
    const res = await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const ids = listPodclubsResponseSchema.parse(res.json()).data.map((p) => p.id)
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id))
    expect(ids).not.toContain(gone.id)
  })

  it('rebuilds the cached list when the database raises the version, and only then', async () => {
    const host = await createUser(t)
    const [member, other] = [await createUser(t), await createUser(t)]
    const podclub = await insertPodclub(t.db, host.id)
    const read = async () =>
      listPodclubsResponseSchema
        .parse((await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/')).json())
        .data.find((p) => p.id === podclub.id)
    expect((await read())?.seats_left).toBe(9)
    // Written with the database's triggers off, so the version stays: the cached answer stays.
    await transaction(t.deps, async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`)
      await tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
    })
    expect((await read())?.seats_left).toBe(9)
    // A plain write through no service raises the version itself: the list is read again.
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: other.id })
    expect((await read())?.seats_left).toBe(7)
  })

  it('never keeps a list read while a seat change was still open once the change commits', async () => {
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const read = async () =>
      listPodclubsResponseSchema
        .parse((await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/')).json())
        .data.find((p) => p.id === podclub.id)
    expect((await read())?.seats_left).toBe(9)
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let bumped!: () => void
    const hasBumped = new Promise<void>((r) => (bumped = r))
    const change = transaction(t.deps, async (tx) => {
      await tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
      bumped()
      await gate
    })
    await hasBumped
    // Asked while the change is open: PGlite makes it wait for the commit, PostgreSQL answers
    // the list as it was. Either way, nothing older than the change is served after it.
    const during = read()
    await new Promise((r) => setTimeout(r, 30))
    release()
    await change
    expect([8, 9]).toContain((await during)?.seats_left)
    expect((await read())?.seats_left).toBe(8)
  })

  it('sends the compressed body the client accepts, the same JSON once decoded', async () => {
    const host = await createUser(t)
    for (let i = 0; i < 5; i++) {
      await insertPodclub(t.db, host.id, {
        description: 'A long conversation about attention, boredom and cities. '.repeat(4),
      })
    }
    const plain = await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/')
    const gz = await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/', {
      headers: { 'accept-encoding': 'gzip, deflate' },
    })
    const br = await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/', {
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers.vary).toMatch(/accept-encoding/i)
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body)
  })

  it('picks br, then gzip, and honours q=0', () => {
    expect(pickEncoding(undefined)).toBe('identity')
    expect(pickEncoding('gzip, deflate, br')).toBe('br')
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip')
    expect(pickEncoding('identity')).toBe('identity')
    expect(pickEncoding('*')).toBe('br')
    expect(pickEncoding('*, br;q=0, gzip;q=0')).toBe('identity')
  })
})

describe('the other podclub reads', () => {
  it('GET /my_upcoming_podclubs/ lists seats held and podclubs hosted, and asks visitors to log in', async () => {
    const me = await createUser(t)
    const other = await createUser(t)
    const hosted = await insertPodclub(t.db, me.id)
    const seat = await insertPodclub(t.db, other.id)
    const notMine = await insertPodclub(t.db, other.id)
    await t.db.insert(registrations).values({ podclubId: seat.id, userId: me.id })
    const agent = createAgent(t.app)
    expect((await agent.get('/api/v1/my_upcoming_podclubs/')).statusCode).toBe(401)
    await agent.login(me.username, me.password)
    const ids = listPodclubsResponseSchema
      .parse((await agent.get('/api/v1/my_upcoming_podclubs/')).json())
      .data.map((p) => p.id)
    expect(ids.sort()).toEqual([hosted.id, seat.id].sort())
    expect(ids).not.toContain(notMine.id)
  })

  it('GET /podclubs/ lists upcoming and completed podclubs but no cancelled ones', async () => {
    const host = await createUser(t)
    const cancelled = await insertPodclub(t.db, host.id, { status: 'cancelled' })
    const upcoming = await insertPodclub(t.db, host.id)
    const res = listPodclubsResponseSchema.parse(
      (await createAgent(t.app).get('/api/v1/podclubs/')).json(),
    )
    const ids = res.data.map((p) => p.id)
    expect(ids).toContain(upcoming.id)
    expect(ids).not.toContain(cancelled.id)
  })

  it('GET /past_podclubs/ and /past_podclubs/random/ show completed podclubs with participants', async () => {
    const fresh = await buildTestApp()
    try {
      const none = await createAgent(fresh.app).get('/api/v1/past_podclubs/random/')
      expect(getRandomPastPodclubResponseSchema.parse(none.json()).data).toBeNull()
      const host = await createUser(fresh)
      const [x, y] = [await createUser(fresh), await createUser(fresh)]
      const past = await insertPodclub(fresh.db, host.id, {
        episodeTitle: 'The Pudding Bowl',
        keywordOne: 'food',
        linkOne: 'https://open.spotify.com/episode/1',
        startsAt: new Date('2026-03-05T00:30:00Z'),
      })
      await fresh.db.insert(registrations).values([
        { podclubId: past.id, userId: x.id },
        { podclubId: past.id, userId: y.id },
      ])
      await fresh.db
        .update(podclubs)
        .set({ status: 'completed', completedAt: new Date('2026-03-05T02:00:00Z') })
      const random = getRandomPastPodclubResponseSchema.parse(
        (await createAgent(fresh.app).get('/api/v1/past_podclubs/random/')).json(),
      ).data
      expect(random).toMatchObject({
        id: past.id,
        episode_title: 'The Pudding Bowl',
        keyword_one: 'food',
        link_one: 'https://open.spotify.com/episode/1',
        participant_count: 3,
        discussion_date: 'Wednesday, March 4, 2026',
      })
      const all = listPastPodclubsResponseSchema.parse(
        (await createAgent(fresh.app).get('/api/v1/past_podclubs/')).json(),
      ).data
      expect(all.map((p) => p.id)).toEqual([past.id])
    } finally {
      await fresh.close()
    }
  })
})
