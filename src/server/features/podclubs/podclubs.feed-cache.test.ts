import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PGlite } from '@electric-sql/pglite'
import { podclubs, registrations } from '../../db/schema/index'
import { pgliteWrites } from '../../db/pglite-writes'
import { transaction } from '../../db/transaction'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { createFeedCache } from './podclubs.feed-cache'
import { insertPodclub } from './podclubs.fixtures'
import { readUpcomingPodclubs } from './podclubs.queries'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const isPglite = () => pgliteWrites(t.db) !== undefined

/** Counts the statements sent to PGlite while `work` runs. */
async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  const client = (t.db as unknown as { $client: PGlite }).$client
  const query = client.query
  let statements = 0
  client.query = ((...args: Parameters<typeof query>) => {
    statements += 1
    return query(...args)
  }) as typeof query
  try {
    await work()
  } finally {
    client.query = query
  }
  return statements
}

const seatsLeftIn = (body: Buffer, id: number) =>
  (JSON.parse(body.toString()) as { data: { id: number; seats_left: number }[] }).data.find(
    (p) => p.id === id,
  )?.seats_left

describe('the feed cache', () => {
  it('on PGlite, counts what may write: every transaction and statement but a plain read', async () => {
    if (!isPglite()) {
      // A PostgreSQL server has other writers: only the version row says what changed.
      expect(process.env.TEST_ENGINE).toBe('postgres')
      expect(pgliteWrites(t.db)).toBeUndefined()
      return
    }
    const host = await createUser(t)
    const before = pgliteWrites(t.db)!
    await t.db.select().from(podclubs).limit(1)
    expect(pgliteWrites(t.db)).toBe(before)
    await insertPodclub(t.db, host.id)
    expect(pgliteWrites(t.db)).toBe(before + 1)
    await t.db.update(podclubs).set({ chatlog: '' }).where(eq(podclubs.id, -1))
    expect(pgliteWrites(t.db)).toBe(before + 2)
    await expect(
      transaction(t.deps, async () => {
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(pgliteWrites(t.db)).toBe(before + 3)
  })

  it('answers a new version after a write; on PGlite, without a statement while nothing is written', async () => {
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const feed = createFeedCache(t.db)
    expect(seatsLeftIn((await feed.read(undefined)).body, podclub.id)).toBe(9)
    if (isPglite()) {
      expect(
        await statementsDuring(() =>
          Promise.all(Array.from({ length: 20 }, () => feed.read(undefined))),
        ),
      ).toBe(0)
    }
    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
    expect(seatsLeftIn((await feed.read(undefined)).body, podclub.id)).toBe(8)
  })

  it('on a seat, reads that podclub’s seats again and joins them to the parts serialized before', async () => {
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const other = await insertPodclub(t.db, host.id, { description: 'Another one' })
    const feed = createFeedCache(t.db)
    const first = JSON.parse((await feed.read(undefined)).body.toString()) as {
      data: Record<string, unknown>[]
    }
    const upcoming = first.data.length
    expect(feed.builds()).toEqual({ texts: 1, seats: upcoming, bodies: 1 })

    await t.db.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
    const body = (await feed.read(undefined)).body
    expect(feed.builds()).toEqual({ texts: 1, seats: upcoming + 1, bodies: 2 })
    const after = JSON.parse(body.toString()) as { data: Record<string, unknown>[] }
    const card = after.data.find((p) => p.id === podclub.id)!
    expect(card.seats_left).toBe(8)
    expect(card.api_registered_usernames).toEqual({ reserved: [member.username] })
    // Everything else is as it was, and the answer is the one the podclubs' query gives.
    const before = first.data.find((p) => p.id === podclub.id)!
    expect({ ...card, seats_left: 0, api_registered_usernames: null }).toEqual({
      ...before,
      seats_left: 0,
      api_registered_usernames: null,
    })
    expect(after.data.find((p) => p.id === other.id)).toEqual(
      first.data.find((p) => p.id === other.id),
    )
    expect(after).toEqual(
      JSON.parse(JSON.stringify({ data: await readUpcomingPodclubs(t.db) })) as unknown,
    )

    // A change of a text reads the texts and every podclub's seats again (names show in both).
    await t.db.update(podclubs).set({ description: 'Changed' }).where(eq(podclubs.id, other.id))
    const changed = JSON.parse((await feed.read(undefined)).body.toString()) as {
      data: Record<string, unknown>[]
    }
    expect(changed.data.find((p) => p.id === other.id)!.description).toBe('Changed')
    expect(feed.builds()).toEqual({ texts: 2, seats: 2 * upcoming + 1, bodies: 3 })
  })

  it('on PGlite, a seat’s own transaction reads its podclub’s seats, and the read after it asks nothing', async () => {
    if (!isPglite()) return
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const feed = createFeedCache(t.db)
    await feed.read(undefined)
    const before = feed.builds()

    const { deps } = t
    await transaction(deps, (tx) =>
      tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id }),
    )
    expect(feed.builds().seats).toBe(before.seats + 1)
    let body!: Buffer
    expect(
      await statementsDuring(async () => {
        body = (await feed.read(undefined)).body
      }),
    ).toBe(0)
    expect(seatsLeftIn(body, podclub.id)).toBe(8)
    expect(feed.builds()).toEqual({ ...before, seats: before.seats + 1, bodies: before.bodies + 1 })
  })

  it('on PGlite, answers from the cache while a write holds the connection, and the write once it is acknowledged', async () => {
    if (!isPglite()) return
    const host = await createUser(t)
    const member = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const feed = createFeedCache(t.db)
    await feed.read(undefined)

    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    let inserted!: () => void
    const insertedSeat = new Promise<void>((resolve) => (inserted = resolve))
    const write = transaction(t.deps, async (tx) => {
      await tx.insert(registrations).values({ podclubId: podclub.id, userId: member.id })
      inserted()
      await held
    })
    await insertedSeat
    // The write holds PGlite's one connection: a read that began before it is acknowledged is
    // answered from before it, without waiting.
    expect(seatsLeftIn((await feed.read(undefined)).body, podclub.id)).toBe(9)
    release()
    await write
    expect(seatsLeftIn((await feed.read(undefined)).body, podclub.id)).toBe(8)
  })
})
