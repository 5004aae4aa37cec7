import { podcasts, podclubs, registrations } from '../../db/schema/index'
import type { TestApp } from '../../testing/test-app'

let seq = 0

/** Test data: a podclub (upcoming unless said), with the given members holding seats. */
export async function createPodclub(
  t: { db: TestApp['db'] },
  opts: {
    podmeisterId: number
    attendeeIds?: number[]
    status?: 'upcoming' | 'completed' | 'cancelled'
    startsAt?: Date
    chatlog?: string
  },
) {
  seq += 1
  const [podcast] = await t.db
    .insert(podcasts)
    .values({ name: `Show ${seq} ${Math.random()}` })
    .returning()
  const status = opts.status ?? 'upcoming'
  const startsAt = opts.startsAt ?? new Date('2026-06-01T23:00:00Z')
  const [club] = await t.db
    .insert(podclubs)
    .values({
      podcastId: podcast!.id,
      podmeisterId: opts.podmeisterId,
      episodeTitle: `Episode ${seq}`,
      status,
      startsAt,
      completedAt: status === 'completed' ? startsAt : null,
      location: 'zoom',
      linkOne: 'https://example.com/one',
      linkThree: 'https://example.com/three',
      chatlog: opts.chatlog ?? '',
    })
    .returning()
  if (opts.attendeeIds?.length) {
    await t.db
      .insert(registrations)
      .values(opts.attendeeIds.map((userId) => ({ podclubId: club!.id, userId })))
  }
  return club!
}
