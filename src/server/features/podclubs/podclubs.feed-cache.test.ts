import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PGlite } from '@electric-sql/pglite'
import { podclubs, registrations } from '../../db/schema/index'
import { pgliteWrites } from '../../db/pglite-writes'
import { transaction } from '../../db/transaction'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { createFeedCache } from './podclubs.feed-cache'
import { insertPodclub } from './podclubs.fixtures'

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
})
