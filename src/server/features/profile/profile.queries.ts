import { and, asc, desc, eq, exists, inArray, ne, or, sql } from 'drizzle-orm'
import type { ProfilePodclub } from '#contract/profile'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs, registrations, users } from '../../db/schema/index'
import { prettyDate, prettyTime } from '#contract/club-time'

export type CredCounts = { attended: number; hosted: number; cred: number }

/**
 * Cred of each member (spec 1 §1): completed podclubs they held a seat in plus completed
 * podclubs they hosted. A podmeister's own podclub counts once, as hosted.
 */
export async function readCred(db: Db | Tx, userIds: number[]): Promise<Map<number, CredCounts>> {
  const result = new Map<number, CredCounts>()
  if (userIds.length === 0) return result
  const unique = [...new Set(userIds)]
  const attended = await db
    .select({ userId: registrations.userId, n: sql<number>`count(*)::int` })
    .from(registrations)
    .innerJoin(podclubs, eq(podclubs.id, registrations.podclubId))
    .where(
      and(
        inArray(registrations.userId, unique),
        eq(podclubs.status, 'completed'),
        ne(podclubs.podmeisterId, registrations.userId),
      ),
    )
    .groupBy(registrations.userId)
  const hosted = await db
    .select({ userId: podclubs.podmeisterId, n: sql<number>`count(*)::int` })
    .from(podclubs)
    .where(and(inArray(podclubs.podmeisterId, unique), eq(podclubs.status, 'completed')))
    .groupBy(podclubs.podmeisterId)
  for (const id of unique) result.set(id, { attended: 0, hosted: 0, cred: 0 })
  for (const row of attended) result.get(row.userId)!.attended = Number(row.n)
  for (const row of hosted) result.get(row.userId)!.hosted = Number(row.n)
  for (const counts of result.values()) counts.cred = counts.attended + counts.hosted
  return result
}

/** Podclubs of one status the member holds a seat in or hosts. */
export async function readMemberPodclubs(
  db: Db | Tx,
  userId: number,
  status: 'upcoming' | 'completed',
): Promise<ProfilePodclub[]> {
  const holdsSeat = exists(
    db
      .select({ one: sql`1` })
      .from(registrations)
      .where(and(eq(registrations.podclubId, podclubs.id), eq(registrations.userId, userId))),
  )
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
    .where(and(eq(podclubs.status, status), or(eq(podclubs.podmeisterId, userId), holdsSeat)))
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
