import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgError } from '../lib/db-errors'
import { createTestDatabase, type TestDatabase } from '../testing/test-db'
import type { Db } from './client'
import { eq } from 'drizzle-orm'
import {
  cacheVersions,
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

/** SQLSTATE of each kind of refusal these tests expect. */
const CHECK = '23514'
const UNIQUE = '23505'
const FOREIGN_KEY = '23503'

/**
 * The write is refused by the database with this SQLSTATE and by this constraint or index: not
 * merely "some error", which a typo in the test's own insert would also give.
 */
async function refused(write: Promise<unknown>, code: string, constraint: string) {
  const err = await write.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err, `expected ${constraint} to refuse the write`).toBeDefined()
  expect(pgError(err)).toMatchObject({ code, constraint })
}

describe('schema constraints', () => {
  it('keeps usernames in the allowed shape and e-mails unique whatever their case', async () => {
    await refused(
      db.insert(users).values({ username: 'Has Caps', email: 'a@b.c', passwordHash: 'x' }),
      CHECK,
      'users_username_format',
    )
    await refused(
      db.insert(users).values({ username: 'ab', email: 'a@b.c', passwordHash: 'x' }),
      CHECK,
      'users_username_format',
    )
    await refused(
      db
        .insert(users)
        .values({ username: 'other.one', email: 'schema@example.COM', passwordHash: 'x' }),
      UNIQUE,
      'users_email_lower_unique',
    )
    await refused(
      db.insert(users).values({ username: 'schema.check', email: 'new@b.c', passwordHash: 'x' }),
      UNIQUE,
      'users_username_unique',
    )
    await refused(
      db.insert(podcasts).values({ name: 'RADIOLAB' }),
      UNIQUE,
      'podcasts_name_lower_unique',
    )
  })

  it('allows one registration per member and podclub', async () => {
    await db.insert(registrations).values({ podclubId, userId })
    await refused(
      db.insert(registrations).values({ podclubId, userId }),
      UNIQUE,
      'registrations_podclub_user_unique',
    )
    await refused(
      db.insert(registrations).values({ podclubId: podclubId + 1000, userId }),
      FOREIGN_KEY,
      'registrations_podclub_id_podclubs_id_fk',
    )
  })

  it('refuses a blank hindsight and a completed podclub without its completion time', async () => {
    await refused(
      db.insert(hindsights).values({ podclubId, userId, message: '   ' }),
      CHECK,
      'hindsights_message_not_blank',
    )
    const podclub = {
      podcastId: (await db.select().from(podcasts))[0]!.id,
      podmeisterId: userId,
      episodeTitle: 'x',
      startsAt: new Date(),
    }
    await refused(
      db.insert(podclubs).values({ ...podclub, status: 'completed' }),
      CHECK,
      'podclubs_completed_has_time',
    )
    await refused(
      db.insert(podclubs).values({ ...podclub, durationMinutes: 0 }),
      CHECK,
      'podclubs_duration_positive',
    )
  })

  it('lets an invite code be used by one member, and never marks the club code used', async () => {
    await db.insert(inviteCodes).values({ code: 'once', usedById: userId, usedAt: new Date() })
    await refused(
      db.insert(inviteCodes).values({ code: 'once' }),
      UNIQUE,
      'invite_codes_code_unique',
    )
    await refused(
      db.insert(inviteCodes).values({ code: 'twice', usedById: userId }),
      UNIQUE,
      'invite_codes_used_by_unique',
    )
    await refused(
      db.insert(inviteCodes).values({ code: 'club', reusable: true, usedAt: new Date() }),
      CHECK,
      'invite_codes_reusable_never_used',
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
      UNIQUE,
      'vote_codes_poll_email_unique',
    )
    await refused(
      db.insert(voteCodes).values({ pollId: p2!.id, email: 'v@example.com', codeHash: 'h1' }),
      UNIQUE,
      'vote_codes_hash_unique',
    )
    await refused(
      db.insert(pollVotes).values({ pollId: p1!.id, optionId: o2!.id, voteCodeId: code!.id }),
      FOREIGN_KEY,
      'poll_votes_option_of_poll_fk',
    )
    await db.insert(pollVotes).values({ pollId: p1!.id, optionId: o1!.id, voteCodeId: code!.id })
    await refused(
      db.insert(pollVotes).values({ pollId: p1!.id, optionId: o1!.id, voteCodeId: code!.id }),
      UNIQUE,
      'poll_votes_vote_code_unique',
    )
  })

  it('bumps the feed versions itself on every change the upcoming feed shows', async () => {
    // The feed's texts follow `podclubs`, each podclub's seats its own `seats:<id>` (decisions 031
    // and 033): one of them rises.
    const version = async () =>
      (await db.select().from(cacheVersions))
        .filter((row) => row.name === 'podclubs' || row.name === `seats:${podclubId}`)
        .reduce((sum, row) => sum + Number(row.version), 0)
    const [other] = await db
      .insert(users)
      .values({ username: 'feed.watcher', email: 'feed@example.com', passwordHash: 'x' })
      .returning()
    const changes: [string, () => Promise<unknown>][] = [
      ['a seat', () => db.insert(registrations).values({ podclubId, userId: other!.id })],
      ['a podclub', () => db.update(podclubs).set({ episodeTitle: 'Renamed' })],
      ['a podcast name', () => db.update(podcasts).set({ name: 'Radiolab!' })],
      [
        'a username',
        () => db.update(users).set({ username: 'feed.watcher2' }).where(eq(users.id, other!.id)),
      ],
      [
        'a seat given back',
        () => db.delete(registrations).where(eq(registrations.userId, other!.id)),
      ],
    ]
    for (const [what, change] of changes) {
      const before = await version()
      await change()
      expect(await version(), what).toBe(before + 1)
    }
    // What the feed does not show leaves it alone.
    const before = await version()
    await db.update(users).set({ city: 'Queens' }).where(eq(users.id, other!.id))
    expect(await version()).toBe(before)
  })
})
