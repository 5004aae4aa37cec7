import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../testing/test-db'
import type { Db } from './client'
import {
  hindsights,
  inviteCodes,
  podcasts,
  podclubs,
  pollOptions,
  polls,
  pollVotes,
  registrations,
  users,
  voteCodes,
} from './schema/index'

/** The data stays consistent by its own constraints, whatever code writes to it. */
let database: TestDatabase
let db: Db
let userId: number
let podclubId: number
beforeAll(async () => {
  database = await createTestDatabase()
  db = database.db
  const [user] = await db
    .insert(users)
    .values({ username: 'schema.check', email: 'Schema@Example.com', passwordHash: 'x' })
    .returning()
  const [podcast] = await db.insert(podcasts).values({ name: 'Radiolab' }).returning()
  const [club] = await db
    .insert(podclubs)
    .values({
      podcastId: podcast!.id,
      podmeisterId: user!.id,
      episodeTitle: 'Constraints',
      startsAt: new Date('2027-01-15T19:00:00Z'),
    })
    .returning()
  userId = user!.id
  podclubId = club!.id
})
afterAll(() => database.close())

const refused = (p: Promise<unknown>) => expect(p).rejects.toThrow()

describe('schema constraints', () => {
  it('keeps usernames in the allowed shape and e-mails unique whatever their case', async () => {
    await refused(
      db.insert(users).values({ username: 'Has Caps', email: 'a@b.c', passwordHash: 'x' }),
    )
    await refused(db.insert(users).values({ username: 'ab', email: 'a@b.c', passwordHash: 'x' }))
    await refused(
      db
        .insert(users)
        .values({ username: 'other.one', email: 'schema@example.COM', passwordHash: 'x' }),
    )
    await refused(db.insert(podcasts).values({ name: 'RADIOLAB' }))
  })

  it('allows one registration per member and podclub', async () => {
    await db.insert(registrations).values({ podclubId, userId })
    await refused(db.insert(registrations).values({ podclubId, userId }))
  })

  it('refuses a blank hindsight and a completed podclub without its completion time', async () => {
    await refused(db.insert(hindsights).values({ podclubId, userId, message: '   ' }))
    await refused(
      db.insert(podclubs).values({
        podcastId: (await db.select().from(podcasts))[0]!.id,
        podmeisterId: userId,
        episodeTitle: 'x',
        startsAt: new Date(),
        status: 'completed',
      }),
    )
  })

  it('lets an invite code be used by one member, and never marks the club code used', async () => {
    await db.insert(inviteCodes).values({ code: 'once', usedById: userId, usedAt: new Date() })
    await refused(db.insert(inviteCodes).values({ code: 'once' }))
    await refused(db.insert(inviteCodes).values({ code: 'twice', usedById: userId }))
    await refused(
      db.insert(inviteCodes).values({ code: 'club', reusable: true, usedAt: new Date() }),
    )
  })

  it('takes one vote per code, and only for an option of the same poll', async () => {
    const [p1, p2] = await db
      .insert(polls)
      .values([
        { title: 'one', expiresAt: new Date('2027-01-01T00:00:00Z') },
        { title: 'two', expiresAt: new Date('2027-01-01T00:00:00Z') },
      ])
      .returning()
    const [o1, o2] = await db
      .insert(pollOptions)
      .values([
        { pollId: p1!.id, title: 'a' },
        { pollId: p2!.id, title: 'b' },
      ])
      .returning()
    const [code] = await db
      .insert(voteCodes)
      .values({ pollId: p1!.id, email: 'v@example.com', codeHash: 'h1' })
      .returning()
    await refused(
      db.insert(voteCodes).values({ pollId: p1!.id, email: 'V@example.com', codeHash: 'h2' }),
    )
    await refused(
      db.insert(pollVotes).values({ pollId: p1!.id, optionId: o2!.id, voteCodeId: code!.id }),
    )
    await db.insert(pollVotes).values({ pollId: p1!.id, optionId: o1!.id, voteCodeId: code!.id })
    await refused(
      db.insert(pollVotes).values({ pollId: p1!.id, optionId: o1!.id, voteCodeId: code!.id }),
    )
  })
})
