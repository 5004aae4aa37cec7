import { asc, eq } from 'drizzle-orm'
import type { PodclubDetail } from '#contract/podclub-detail'
import type { Db } from '../../db/client'
import { hindsights, podclubs, users } from '../../db/schema/index'
import { notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { readPodclubs } from '../podclubs/podclubs.queries'
import { readParticipants } from '../podclubs/podclubs.rules'
import { readCred } from '../profile/profile.service'

/**
 * One podclub as its detail page reads it. The hindsights and chat log of a completed podclub
 * are in the answer only for those who took part in it (its podmeister and seat holders):
 * anyone else gets an answer without those keys.
 */
export async function getPodclubDetail(
  db: Db,
  viewer: AuthUser | null,
  podclubId: number,
): Promise<PodclubDetail> {
  const [row] = await db
    .select({
      id: podclubs.id,
      podmeisterId: podclubs.podmeisterId,
      status: podclubs.status,
      chatlog: podclubs.chatlog,
    })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  if (!row) throw notFound('podclub')
  const [card] = await readPodclubs(db, eq(podclubs.id, podclubId))
  if (!card) throw notFound('podclub')

  const participants = await readParticipants(db, podclubId)
  const cred = await readCred(
    db,
    participants.map((p) => p.id),
  )
  const credOf = (id: number) => cred.get(id)?.cred ?? 0

  const { api_registered_usernames: _names, podmeister, ...rest } = card
  const detail: PodclubDetail = {
    ...rest,
    podmeister: { username: podmeister.username, profile: { cred: credOf(row.podmeisterId) } },
    api_registered_usernames: {
      reserved: participants
        .filter((p) => !p.isPodmeister)
        .map((p) => ({ username: p.username, cred: credOf(p.id) })),
    },
    links: [card.link_one, card.link_two, card.link_three].filter((l) => l.trim() !== ''),
  }

  const takesPart = viewer !== null && participants.some((p) => p.id === viewer.id)
  if (row.status === 'completed' && takesPart) {
    detail.hindsights = await db
      .select({ username: users.username, message: hindsights.message })
      .from(hindsights)
      .innerJoin(users, eq(users.id, hindsights.userId))
      .where(eq(hindsights.podclubId, podclubId))
      .orderBy(asc(hindsights.createdAt), asc(hindsights.id))
    detail.chatlog = row.chatlog
  }
  return detail
}
