import type { Db } from '../../db/client'
import { podcasts, podclubs } from '../../db/schema/index'

let podcastSeq = 0

/** For tests and the bench: a podclub of a new podcast, upcoming in a month unless told. */
export async function insertPodclub(
  db: Db,
  podmeisterId: number,
  overrides: Partial<typeof podclubs.$inferInsert> = {},
) {
  podcastSeq += 1
  return db.transaction(async (tx) => {
    const [podcast] = await tx
      .insert(podcasts)
      .values({
        name: `Podcast ${podcastSeq} ${Math.random().toString(36).slice(2, 8)}`,
        pictureLink: '',
      })
      .returning()
    const [podclub] = await tx
      .insert(podclubs)
      .values({
        podcastId: podcast!.id,
        podmeisterId,
        episodeTitle: `Episode ${podcastSeq}`,
        startsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000),
        ...overrides,
      })
      .returning()
    return podclub!
  })
}
