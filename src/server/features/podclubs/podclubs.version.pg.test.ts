import { keyedVersion, readCacheVersions } from '../../db/cache-versions'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podclubs, registrations } from '../../db/schema/index'
import { openTwoApps } from '../../testing/two-apps'
import { createUser, loggedInMember, type TestApp } from '../../testing/test-app'
import { createPodclubDetailReader } from '../podclub-detail/podclub-detail.service'
import { createFeedCache } from './podclubs.feed-cache'
import { insertPodclub } from './podclubs.fixtures'
import { readUpcomingPodclubs } from './podclubs.queries'

let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const lockRow = (db: TestApp['db'], podclubId: number) =>
  db.select({ id: podclubs.id }).from(podclubs).where(eq(podclubs.id, podclubId)).for('update')

type Feed = { data: { id: number; seats_left: number; api_registered_usernames: unknown }[] }
const feedOf = async (feed: ReturnType<typeof createFeedCache>) =>
  JSON.parse((await feed.read(undefined)).body.toString()) as Feed
const seatsLeft = (feed: Feed, id: number) => feed.data.find((p) => p.id === id)?.seats_left

describe('the seats versions on one PostgreSQL shared by two processes', () => {
  it('are raised at commit, so a change in one podclub never holds up another podclub’s lock', async () => {
    const host = await createUser(a)
    const [one, two] = [await createUser(a), await createUser(a)]
    const first = await insertPodclub(a.db, host.id)
    const second = await insertPodclub(a.db, host.id)
    const names = [keyedVersion('seats', first.id), keyedVersion('seats', second.id)]
    const start = await readCacheVersions(a.db, names)

    // As an account deletion does: a seat change in the first podclub, then the second's lock,
    // while a seat change in the second podclub holds that lock and writes its seat.
    let changedFirst!: () => void
    const firstChanged = new Promise<void>((resolve) => (changedFirst = resolve))
    let lockedSecond!: () => void
    const secondLocked = new Promise<void>((resolve) => (lockedSecond = resolve))
    const deletion = a.db.transaction(async (tx) => {
      await tx.insert(registrations).values({ podclubId: first.id, userId: one.id })
      changedFirst()
      await secondLocked
      await lockRow(tx, second.id)
    })
    const seatChange = b.db.transaction(async (tx) => {
      await firstChanged
      await lockRow(tx, second.id)
      lockedSecond()
      await new Promise((resolve) => setTimeout(resolve, 200))
      await tx.insert(registrations).values({ podclubId: second.id, userId: two.id })
    })

    await expect(Promise.all([deletion, seatChange])).resolves.toEqual([undefined, undefined])
    const after = await readCacheVersions(a.db, names)
    for (const name of names) expect(after.get(name)).toBe(start.get(name)! + 1)
  })

  it('a seat taken through one app shows at once in the other’s feed, detail and profile, and no other podclub’s seats are read again', async () => {
    const host = await createUser(a)
    const { user, agent } = await loggedInMember(a)
    const cookie = [...agent.jar].map(([name, c]) => `${name}=${c.value}`).join('; ')
    const first = await insertPodclub(a.db, host.id)
    const second = await insertPodclub(a.db, host.id)
    const feed = createFeedCache(b.db)
    const detail = createPodclubDetailReader(b.db)
    const profile = async () =>
      (
        JSON.parse((await b.app.inject({ url: '/api/v1/profile/', headers: { cookie } })).body) as {
          data: { upcoming_podclubs: { id: number }[] }
        }
      ).data.upcoming_podclubs.map((p) => p.id)

    expect(seatsLeft(await feedOf(feed), first.id)).toBe(9)
    expect((await detail(null, first.id)).seats_left).toBe(9)
    expect((await detail(null, second.id)).seats_left).toBe(9)
    expect(await profile()).toEqual([])
    const before = feed.builds()

    const taken = await agent.post(`/api/v1/register/${first.id}/`)
    expect(taken.statusCode, taken.body).toBe(200)
    const after = await feedOf(feed)
    expect(seatsLeft(after, first.id)).toBe(8)
    expect(seatsLeft(after, second.id)).toBe(9)
    // The podclub whose seat changed, alone; no text.
    expect(feed.builds()).toEqual({ ...before, seats: before.seats + 1, bodies: before.bodies + 1 })
    const shown = await detail(null, first.id)
    expect(shown.seats_left).toBe(8)
    expect(shown.api_registered_usernames.reserved).toEqual([{ username: user.username, cred: 0 }])
    expect((await detail(null, second.id)).seats_left).toBe(9)
    expect(await profile()).toEqual([first.id])
  })

  it('while members change seats through both apps at once, a read after each answer shows it', async () => {
    const host = await createUser(a)
    const [busyA, busyB, quiet] = [
      await insertPodclub(a.db, host.id),
      await insertPodclub(a.db, host.id),
      await insertPodclub(a.db, host.id),
    ]
    const members = await Promise.all(
      Array.from({ length: 6 }, (_, i) => loggedInMember(a, { on: i % 2 ? b : a })),
    )
    const checker = await loggedInMember(a)
    const feedOnB = createFeedCache(b.db)
    const until = Date.now() + 2_000
    const churn = members.map(async ({ agent }, i) => {
      const podclub = i < 3 ? busyA : busyB
      while (Date.now() < until) {
        const res = await agent.post(`/api/v1/register/${podclub.id}/`)
        expect(res.statusCode, res.body).toBe(200)
      }
    })
    let checks = 0
    const check = (async () => {
      while (Date.now() < until) {
        const res = await checker.agent.post(`/api/v1/register/${quiet.id}/`)
        expect(res.statusCode, res.body).toBe(200)
        const answer = (res.json() as { data: { seats_left: number } }).data.seats_left
        expect(seatsLeft(await feedOf(feedOnB), quiet.id)).toBe(answer)
        checks += 1
      }
    })()
    await Promise.all([...churn, check])
    expect(checks).toBeGreaterThan(0)
    // Once all is written, both processes' feeds are what the database holds.
    const truth = JSON.parse(JSON.stringify({ data: await readUpcomingPodclubs(a.db) })) as Feed
    expect(await feedOf(feedOnB)).toEqual(truth)
    expect(await feedOf(createFeedCache(a.db))).toEqual(truth)
  })
})
