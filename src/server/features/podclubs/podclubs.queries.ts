import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Podclub } from '#contract/podclubs'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, registrations, seatWaitlist, users } from '../../db/schema/index'
import { prettyDate, prettyTime } from '#contract/club-time'
import { seatsLeft, takesPart } from './podclubs.rules'

const podmeisters = alias(users, 'podmeisters')

/** The tables and columns `readPodclubs` reads, for the cached reads built on it (`CachedRead`). */
export const PODCLUB_CARDS_READ = {
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
  registrations: ['id', 'podclub_id', 'user_id', 'created_at'],
  seat_waitlist: ['id', 'podclub_id', 'user_id'],
} as const

/** Podcasts and members show in a card only once its podclub or a seat refers to them. */
export const PODCLUB_CARDS_NEW_ROWS = { podcasts: 'podclubs', users: 'registrations' } as const

/**
 * Podclubs as the feed, cards and lists read them (`Podclub` of the contract), with who holds a
 * seat. `where` filters on `podclubs` columns; the order is the given one (soonest first when
 * not given).
 */
export async function readPodclubs(
  db: Db | Tx,
  where?: SQL,
  order: 'soonest' | 'latest' = 'soonest',
): Promise<Podclub[]> {
  const rows = await db
    .select({
      podclub: podclubs,
      podcastName: podcasts.name,
      podcastPicture: podcasts.pictureLink,
      podmeister: podmeisters.username,
      seatsLeft: seatsLeft(),
    })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .innerJoin(podmeisters, eq(podmeisters.id, podclubs.podmeisterId))
    .where(where)
    .orderBy(
      order === 'soonest' ? asc(podclubs.startsAt) : desc(podclubs.startsAt),
      asc(podclubs.id),
    )
  if (rows.length === 0) return []

  const ids = rows.map((r) => r.podclub.id)
  const [seats, waiting] = await Promise.all([
    db
      .select({ podclubId: registrations.podclubId, username: users.username })
      .from(registrations)
      .innerJoin(users, eq(users.id, registrations.userId))
      .where(inArray(registrations.podclubId, ids))
      .orderBy(asc(registrations.createdAt), asc(registrations.id)),
    db
      .select({ podclubId: seatWaitlist.podclubId, username: users.username })
      .from(seatWaitlist)
      .innerJoin(users, eq(users.id, seatWaitlist.userId))
      .where(inArray(seatWaitlist.podclubId, ids))
      .orderBy(asc(seatWaitlist.id)),
  ])
  const reservedBy = groupUsernames(seats)
  const waitingFor = groupUsernames(waiting)

  return rows.map(({ podclub: p, podcastName, podcastPicture, podmeister, seatsLeft }) => {
    const reserved = reservedBy.get(p.id) ?? []
    return {
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
      seats_left: seatsLeft,
      keyword_one: p.keywordOne,
      keyword_two: p.keywordTwo,
      keyword_three: p.keywordThree,
      link_one: p.linkOne,
      link_two: p.linkTwo,
      link_three: p.linkThree,
      podcast: { name: podcastName, picture_link: podcastPicture },
      api_registered_usernames: { reserved },
      waitlist_count: waitingFor.get(p.id)?.length ?? 0,
      seat_waitlist: { waiting: waitingFor.get(p.id) ?? [] },
    }
  })
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
