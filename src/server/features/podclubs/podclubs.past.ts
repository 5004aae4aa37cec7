import { desc, eq, sql } from 'drizzle-orm'
import type { PastPodclub } from '#contract/podclubs'
import type { Db } from '../../db/client'
import { podcasts, podclubs } from '../../db/schema/index'
import { prettyDate } from '#contract/club-time'
import { participantCount } from './podclubs.rules'

/**
 * Completed podclubs as the archive shows them, latest first; `random` picks one at random.
 * The participant count is the seats that were held plus the podmeister.
 */
export async function readPastPodclubs(
  db: Db,
  opts: { random?: boolean; limit?: number } = {},
): Promise<PastPodclub[]> {
  const rows = await db
    .select({
      podclub: podclubs,
      podcastName: podcasts.name,
      podcastPicture: podcasts.pictureLink,
      participants: participantCount(),
    })
    .from(podclubs)
    .innerJoin(podcasts, eq(podcasts.id, podclubs.podcastId))
    .where(eq(podclubs.status, 'completed'))
    .orderBy(opts.random ? sql`random()` : desc(podclubs.startsAt), desc(podclubs.id))
    .limit(opts.limit ?? 200)
  return rows.map(({ podclub: p, podcastName, podcastPicture, participants }) => ({
    id: p.id,
    episode_title: p.episodeTitle,
    episode_number: p.episodeNumber,
    description: p.description,
    podcast: { name: podcastName, picture_link: podcastPicture },
    keyword_one: p.keywordOne,
    keyword_two: p.keywordTwo,
    keyword_three: p.keywordThree,
    link_one: p.linkOne,
    link_two: p.linkTwo,
    link_three: p.linkThree,
    participant_count: participants,
    discussion_date: prettyDate(p.startsAt),
  }))
}
