import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import type { ProfilePodclub } from '#contract/profile'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, users } from '../../db/schema/index'
import { prettyDate, prettyTime } from '#contract/club-time'
import { takesPart } from '../podclubs/podclubs.rules'

export type CredCounts = { attended: number; hosted: number; cred: number }

/**
 * Cred of each member (spec 1 §1): the completed podclubs they took part in, counted as hosted
 * when they were its podmeister and as attended otherwise.
 */
export async function readCred(db: Db | Tx, userIds: number[]): Promise<Map<number, CredCounts>> {
  const result = new Map<number, CredCounts>()
  if (userIds.length === 0) return result
  const unique = [...new Set(userIds)]
  const rows = await db
    .select({
      userId: users.id,
      hosted: sql<number>`count(*) filter (where ${podclubs.podmeisterId} = ${users.id})::int`,
      attended: sql<number>`count(*) filter (where ${podclubs.podmeisterId} <> ${users.id})::int`,
    })
    .from(users)
    .innerJoin(podclubs, and(eq(podclubs.status, 'completed'), takesPart(users.id)))
    .where(inArray(users.id, unique))
    .groupBy(users.id)
  for (const id of unique) result.set(id, { attended: 0, hosted: 0, cred: 0 })
  for (const row of rows) {
    const attended = Number(row.attended)
    const hosted = Number(row.hosted)
    result.set(row.userId, { attended, hosted, cred: attended + hosted })
  }
  return result
}

/** Podclubs of one status the member takes part in (seats held and podclubs hosted). */
export async function readMemberPodclubs(
  db: Db | Tx,
  userId: number,
  status: 'upcoming' | 'completed',
): Promise<ProfilePodclub[]> {
  const rows = await db
    .select({
      id: podclubs.id,
      status: podclubs.status,
      episodeTitle: podclubs.episodeTitle,
      startsAt: podclubs.startsAt,
      podcastName: podcasts.name,
      podcastPicture: podcasts.pictureLink,
    })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .where(and(eq(podclubs.status, status), takesPart(userId)))
    .orderBy(
      status === 'upcoming' ? asc(podclubs.startsAt) : desc(podclubs.startsAt),
      asc(podclubs.id),
    )
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    episode_title: r.episodeTitle,
    podcast: { name: r.podcastName, picture_link: r.podcastPicture },
    starts_at: r.startsAt.toISOString(),
    pretty_date: prettyDate(r.startsAt),
    pretty_time: prettyTime(r.startsAt),
  }))
}

export async function readMember(db: Db | Tx, userId: number) {
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      city: users.city,
      memberSince: users.memberSince,
    })
    .from(users)
    .where(eq(users.id, userId))
  return user
}
