import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { SEATS_PER_PODCLUB, type Podclub } from '#contract/podclubs'
import type { CachedRead } from '../../db/cache-versions'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, registrations, seatWaitlist, users } from '../../db/schema/index'
import { prettyDate, prettyTime } from '#contract/club-time'
import { takesPart } from './podclubs.rules'

const podmeisters = alias(users, 'podmeisters')

/** The tables and columns `readPodclubTexts` reads, for the cached reads built on it. */
export const PODCLUB_TEXTS_READ = {
  podclubs: [
    'id',
    'podcast_id',
    'podmeister_id',
    'episode_title',
    'episode_number',
    'status',
    'starts_at',
    'location',
    'zoom_link',
    'keyword_one',
    'keyword_two',
    'keyword_three',
    'link_one',
    'link_two',
    'link_three',
    'description',
    'podmeister_note',
    'chatlog',
    'one_week_notice_sent',
    'one_day_notice_sent',
    'ten_min_notice_sent',
    'manual_notice_sent_at',
    'completed_at',
    'duration_minutes',
    'calendar_sequence',
    'created_at',
  ],
  podcasts: ['id', 'name', 'picture_link'],
  users: ['id', 'username'],
} as const

/** The tables and columns `readPodclubSeats` reads, for the cached reads built on it. */
export const PODCLUB_SEATS_READ = {
  registrations: ['id', 'podclub_id', 'user_id', 'created_at'],
  seat_waitlist: ['id', 'podclub_id', 'user_id'],
  users: ['id', 'username'],
} as const

/**
 * `readPodclubSeats` of one podclub reads its seats and seat waitlist only (the rows whose
 * `podclub_id` is that podclub): what that podclub's own seats' version (`seats:<id>`) stands for.
 */
export const PODCLUB_SEATS_BY_PODCLUB = {
  version: 'seats',
  columns: { registrations: 'podclub_id', seat_waitlist: 'podclub_id' },
} as const satisfies CachedRead['perKey']

/** Both, what `readPodclubs` reads. */
export const PODCLUB_CARDS_READ = { ...PODCLUB_TEXTS_READ, ...PODCLUB_SEATS_READ } as const

/** Podcasts and members show in a card only once its podclub or a seat refers to them. */
export const PODCLUB_CARDS_NEW_ROWS = { podcasts: 'podclubs', users: 'registrations' } as const

/** What a card shows of a podclub but its seats: it changes with the `podclubs` version. */
export type PodclubText = Omit<
  Podclub,
  'seats_left' | 'api_registered_usernames' | 'waitlist_count' | 'seat_waitlist'
>
/** What a card shows of a podclub's seats: it changes with the `seats` version. */
export type PodclubSeats = Pick<
  Podclub,
  'seats_left' | 'api_registered_usernames' | 'waitlist_count' | 'seat_waitlist'
>

/**
 * The podclubs' texts as cards show them, without their seats. `where` filters on `podclubs`
 * columns; the order is the given one (soonest first when not given).
 */
export async function readPodclubTexts(
  db: Db | Tx,
  where?: SQL,
  order: 'soonest' | 'latest' = 'soonest',
): Promise<PodclubText[]> {
  const rows = await db
    .select({
      podclub: podclubs,
      podcastName: podcasts.name,
      podcastPicture: podcasts.pictureLink,
      podmeister: podmeisters.username,
    })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .innerJoin(podmeisters, eq(podmeisters.id, podclubs.podmeisterId))
    .where(where)
    .orderBy(
      order === 'soonest' ? asc(podclubs.startsAt) : desc(podclubs.startsAt),
      asc(podclubs.id),
    )
  return rows.map(({ podclub: p, podcastName, podcastPicture, podmeister }) => ({
    id: p.id,
    status: p.status,
    episode_title: p.episodeTitle,
    episode_number: p.episodeNumber,
    description: p.description,
    podmeister_note: p.podmeisterNote,
    podmeister: { username: podmeister },
    starts_at: p.startsAt.toISOString(),
    pretty_date: prettyDate(p.startsAt),
    pretty_time: prettyTime(p.startsAt),
    location: p.location,
    keyword_one: p.keywordOne,
    keyword_two: p.keywordTwo,
    keyword_three: p.keywordThree,
    link_one: p.linkOne,
    link_two: p.linkTwo,
    link_three: p.linkThree,
    podcast: { name: podcastName, picture_link: podcastPicture },
  }))
}

/** The seats of the given podclubs, by podclub: who holds one and who waits, in order. */
export async function readPodclubSeats(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, PodclubSeats>> {
  const result = new Map<number, PodclubSeats>()
  if (ids.length === 0) return result
  // One statement: the seats, then the seat waitlist, each in its order.
  const rows = await db
    .select({
      waits: sql<boolean>`false`.as('waits'),
      podclubId: registrations.podclubId,
      username: users.username,
      takenAt: sql<Date | null>`${registrations.createdAt}`.as('taken_at'),
      rowId: sql<number>`${registrations.id}`.as('row_id'),
    })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .where(inArray(registrations.podclubId, [...ids]))
    .unionAll(
      db
        .select({
          waits: sql<boolean>`true`.as('waits'),
          podclubId: seatWaitlist.podclubId,
          username: users.username,
          takenAt: sql<Date | null>`null::timestamptz`.as('taken_at'),
          rowId: sql<number>`${seatWaitlist.id}`.as('row_id'),
        })
        .from(seatWaitlist)
        .innerJoin(users, eq(users.id, seatWaitlist.userId))
        .where(inArray(seatWaitlist.podclubId, [...ids])),
    )
    .orderBy(sql`waits`, sql`taken_at`, sql`row_id`)
  const reservedBy = groupUsernames(rows.filter((r) => !r.waits))
  const waitingFor = groupUsernames(rows.filter((r) => r.waits))
  for (const id of ids) {
    const reserved = reservedBy.get(id) ?? []
    const waitlist = waitingFor.get(id) ?? []
    result.set(id, {
      seats_left: Math.max(0, SEATS_PER_PODCLUB - reserved.length),
      api_registered_usernames: { reserved },
      waitlist_count: waitlist.length,
      seat_waitlist: { waiting: waitlist },
    })
  }
  return result
}

/**
 * Podclubs as the feed, cards and lists read them (`Podclub` of the contract), with who holds a
 * seat: their texts and their seats. `where` filters on `podclubs` columns; the order is the
 * given one (soonest first when not given).
 */
export async function readPodclubs(
  db: Db | Tx,
  where?: SQL,
  order: 'soonest' | 'latest' = 'soonest',
): Promise<Podclub[]> {
  const texts = await readPodclubTexts(db, where, order)
  if (texts.length === 0) return []
  const seats = await readPodclubSeats(
    db,
    texts.map((p) => p.id),
  )
  return texts.map((text) => ({ ...text, ...seats.get(text.id)! }))
}

function groupUsernames(rows: { podclubId: number; username: string }[]) {
  const byPodclub = new Map<number, string[]>()
  for (const row of rows) {
    const list = byPodclub.get(row.podclubId) ?? []
    list.push(row.username)
    byPodclub.set(row.podclubId, list)
  }
  return byPodclub
}

/** The upcoming podclubs, soonest first: what the home feed shows to everyone. */
export function readUpcomingPodclubs(db: Db | Tx): Promise<Podclub[]> {
  return readPodclubs(db, eq(podclubs.status, 'upcoming'))
}

/** The upcoming podclubs the member takes part in (seats held and podclubs hosted), soonest first. */
export function readMemberUpcomingPodclubs(db: Db | Tx, userId: number): Promise<Podclub[]> {
  return readPodclubs(db, and(eq(podclubs.status, 'upcoming'), takesPart(userId)))
}
