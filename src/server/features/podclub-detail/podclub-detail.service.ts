import { and, asc, eq } from 'drizzle-orm'
import type { PodclubDetail } from '#contract/podclub-detail'
import type { Db } from '../../db/client'
import { hindsights, podclubs, registrations, users } from '../../db/schema/index'
import { notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { readPodclubs } from '../podclubs/podclubs.queries'
import { readCred } from '../profile/profile.service'

/** Whether the member attended the podclub: its podmeister, or holding one of its seats. */
export async function isAttendee(
  db: Pick<Db, 'select'>,
  podclub: { id: number; podmeisterId: number },
  userId: number,
): Promise<boolean> {
  if (podclub.podmeisterId === userId) return true
  const [seat] = await db
    .select({ id: registrations.id })
    .from(registrations)
    .where(and(eq(registrations.podclubId, podclub.id), eq(registrations.userId, userId)))
  return !!seat
}

/**
 * One podclub as its detail page reads it. The hindsights and chat log of a completed podclub
 * are in the answer only for its attendees: anyone else gets an answer without those keys.
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

  const seats = await db
    .select({ userId: users.id, username: users.username })
    .from(registrations)
    .innerJoin(users, eq(users.id, registrations.userId))
    .where(eq(registrations.podclubId, podclubId))
    .orderBy(asc(registrations.createdAt), asc(registrations.id))
  const cred = await readCred(db, [row.podmeisterId, ...seats.map((s) => s.userId)])
  const credOf = (id: number) => cred.get(id)?.cred ?? 0

  const { api_registered_usernames: _names, podmeister, ...rest } = card
  const detail: PodclubDetail = {
    ...rest,
    podmeister: { username: podmeister.username, profile: { cred: credOf(row.podmeisterId) } },
    api_registered_usernames: {
      reserved: seats
        .filter((s) => s.userId !== row.podmeisterId)
        .map((s) => ({ username: s.username, cred: credOf(s.userId) })),
    },
    links: [card.link_one, card.link_two, card.link_three].filter((l) => l.trim() !== ''),
  }

  if (row.status === 'completed' && viewer && (await isAttendee(db, row, viewer.id))) {
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
