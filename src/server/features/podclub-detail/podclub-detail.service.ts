import { asc, eq } from 'drizzle-orm'
import type { PodclubDetail } from '#contract/podclub-detail'
import type { Db } from '../../db/client'
import { cachedByVersion, type CachedRead } from '../../db/cache-versions'
import { hindsights, podclubs, users } from '../../db/schema/index'
import { notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import {
  PODCLUB_CARDS_NEW_ROWS,
  PODCLUB_CARDS_READ,
  readPodclubs,
} from '../podclubs/podclubs.queries'
import { readParticipants } from '../podclubs/podclubs.rules'
import { readCred } from '../profile/profile.service'

/** A podclub's detail as every viewer sees it: its card, who takes part and their cred. */
export const DETAIL_READ: CachedRead = {
  name: 'podclub detail',
  versions: ['podclubs', 'seats'],
  dependsOn: {
    ...PODCLUB_CARDS_READ,
    // Who takes part (`readParticipants`): members by address too, deleted ones left out.
    users: [...PODCLUB_CARDS_READ.users, 'email', 'deleted_at'],
  },
  newRowsSeenThrough: PODCLUB_CARDS_NEW_ROWS,
}

type DetailCore = {
  detail: PodclubDetail
  status: string
  chatlog: PodclubDetail['chatlog']
  participantIds: ReadonlySet<number>
}

/** What every viewer of a podclub is shown, and who takes part in it; null when there is none. */
async function readDetailCore(db: Db, podclubId: number): Promise<DetailCore | null> {
  const [row] = await db
    .select({
      id: podclubs.id,
      podmeisterId: podclubs.podmeisterId,
      status: podclubs.status,
      chatlog: podclubs.chatlog,
    })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  if (!row) return null
  const [card] = await readPodclubs(db, eq(podclubs.id, podclubId))
  if (!card) return null

  const participants = await readParticipants(db, podclubId)
  const cred = await readCred(
    db,
    participants.map((p) => p.id),
  )
  const credOf = (id: number) => cred.get(id)?.cred ?? 0

  const { api_registered_usernames: _names, podmeister, ...rest } = card
  return {
    detail: {
      ...rest,
      podmeister: { username: podmeister.username, profile: { cred: credOf(row.podmeisterId) } },
      api_registered_usernames: {
        reserved: participants
          .filter((p) => !p.isPodmeister)
          .map((p) => ({ username: p.username, cred: credOf(p.id) })),
      },
      links: [card.link_one, card.link_two, card.link_three].filter((l) => l.trim() !== ''),
    },
    status: row.status,
    chatlog: row.chatlog,
    participantIds: new Set(participants.map((p) => p.id)),
  }
}

/**
 * A podclub's detail reader for one database: its shared part is remembered while the podclubs'
 * and the seats' versions stand (`cachedByVersion`: seats, names, cred and the podclub itself
 * raise one of them; a seat anywhere still reads it again), so
 * a podclub many people open at once costs its queries once, on either engine.
 */
export function createPodclubDetailReader(db: Db) {
  const readCore = cachedByVersion(db, DETAIL_READ, (podclubId: number) =>
    readDetailCore(db, podclubId),
  )
  return (viewer: AuthUser | null, podclubId: number) =>
    getPodclubDetail(db, viewer, podclubId, readCore)
}

/**
 * Whether a viewer's detail is the shared part alone (what `DETAIL_READ`'s versions stand for):
 * not for one who took part in a completed podclub, whose answer adds the hindsights, read for
 * each request.
 */
export function isSharedDetail(detail: PodclubDetail): boolean {
  return detail.hindsights === undefined
}

/**
 * One podclub as its detail page reads it. The hindsights and chat log of a completed podclub
 * are in the answer only for those who took part in it (its podmeister and seat holders):
 * anyone else gets an answer without those keys.
 */
async function getPodclubDetail(
  db: Db,
  viewer: AuthUser | null,
  podclubId: number,
  readCore: (podclubId: number) => Promise<DetailCore | null>,
): Promise<PodclubDetail> {
  const core = await readCore(podclubId)
  if (!core) throw notFound('podclub')
  // A copy: the shared part may be answering other requests.
  const detail: PodclubDetail = { ...core.detail }
  const takesPart = viewer !== null && core.participantIds.has(viewer.id)
  if (core.status === 'completed' && takesPart) {
    detail.hindsights = await db
      .select({ username: users.username, message: hindsights.message })
      .from(hindsights)
      .innerJoin(users, eq(users.id, hindsights.userId))
      .where(eq(hindsights.podclubId, podclubId))
      .orderBy(asc(hindsights.createdAt), asc(hindsights.id))
    detail.chatlog = core.chatlog
  }
  return detail
}
