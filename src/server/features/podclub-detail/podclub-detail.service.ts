import { asc, eq } from 'drizzle-orm'
import type { PodclubDetail } from '#contract/podclub-detail'
import type { Db, Tx } from '../../db/client'
import {
  cachedByVersion,
  cachedManyByVersion,
  type CachedRead,
  cacheVersionsOf,
  holdsAll,
  sameStamp,
  stampOf,
} from '../../db/cache-versions'
import { hindsights, podclubs, users } from '../../db/schema/index'
import { notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import {
  PODCLUB_SEATS_BY_PODCLUB,
  PODCLUB_SEATS_READ,
  PODCLUB_TEXTS_READ,
  type PodclubSeats,
  type PodclubText,
  readPodclubSeats,
  readPodclubTexts,
} from '../podclubs/podclubs.queries'
import { type Participant, readParticipants } from '../podclubs/podclubs.rules'
import { readCred } from '../profile/profile.service'

/** A podclub's detail as every viewer sees it, but its seats: its card's texts. */
export const DETAIL_TEXT_READ: CachedRead = {
  name: 'podclub detail text',
  versions: ['podclubs'],
  dependsOn: PODCLUB_TEXTS_READ,
  newRowsSeenThrough: { podcasts: 'podclubs', users: 'podclubs' },
}

/** A podclub's seats as its detail shows them: its card's seats and who takes part. */
export const DETAIL_SEATS_READ: CachedRead = {
  name: 'podclub detail seats',
  versions: ['podclubs'],
  perKey: PODCLUB_SEATS_BY_PODCLUB,
  dependsOn: {
    ...PODCLUB_SEATS_READ,
    // Who takes part (`readParticipants`): its podmeister, members by address too, deleted ones
    // left out.
    podclubs: ['id', 'podmeister_id'],
    users: [...PODCLUB_SEATS_READ.users, 'email', 'deleted_at'],
  },
  newRowsSeenThrough: { users: 'registrations' },
}

/** The cred of a member who takes part: the completed podclubs they hosted or attended. */
export const CRED_READ: CachedRead = {
  name: 'cred',
  versions: ['podclubs'],
  perKey: { version: 'member_seats', columns: { registrations: 'user_id' } },
  dependsOn: {
    // starts_at: the index of podclubs by status is on it.
    podclubs: ['id', 'status', 'podmeister_id', 'starts_at'],
    registrations: ['podclub_id', 'user_id'],
  },
}

type DetailText = {
  card: PodclubText
  podmeisterId: number
  status: string
  chatlog: PodclubDetail['chatlog']
}

type DetailSeats = { seats: PodclubSeats; participants: Participant[] }

type DetailCore = {
  detail: PodclubDetail
  status: string
  chatlog: PodclubDetail['chatlog']
  participantIds: ReadonlySet<number>
}

/** The podclub and its card's texts; null when there is none. */
async function readDetailText(db: Db, podclubId: number): Promise<DetailText | null> {
  const [row] = await db
    .select({
      podmeisterId: podclubs.podmeisterId,
      status: podclubs.status,
      chatlog: podclubs.chatlog,
    })
    .from(podclubs)
    .where(eq(podclubs.id, podclubId))
  if (!row) return null
  const [card] = await readPodclubTexts(db, eq(podclubs.id, podclubId))
  return card ? { card, ...row } : null
}

/** The seats of each podclub and who takes part in it (none for an unknown podclub). */
async function readDetailSeats(
  db: Db | Tx,
  podclubIds: readonly number[],
): Promise<Map<number, DetailSeats>> {
  const seats = await readPodclubSeats(db, podclubIds)
  const result = new Map<number, DetailSeats>()
  for (const id of podclubIds)
    result.set(id, { seats: seats.get(id)!, participants: await readParticipants(db, id) })
  return result
}

/** What every viewer of a podclub is shown, and who takes part in it, from its parts. */
function detailCore(
  text: DetailText,
  { seats, participants }: DetailSeats,
  cred: ReadonlyMap<number, { cred: number }>,
): DetailCore {
  const credOf = (id: number) => cred.get(id)?.cred ?? 0
  const { api_registered_usernames: _names, podmeister, ...rest } = { ...text.card, ...seats }
  return {
    detail: {
      ...rest,
      podmeister: { username: podmeister.username, profile: { cred: credOf(text.podmeisterId) } },
      api_registered_usernames: {
        reserved: participants
          .filter((p) => !p.isPodmeister)
          .map((p) => ({ username: p.username, cred: credOf(p.id) })),
      },
      links: [text.card.link_one, text.card.link_two, text.card.link_three].filter(
        (l) => l.trim() !== '',
      ),
    },
    status: text.status,
    chatlog: text.chatlog,
    participantIds: new Set(participants.map((p) => p.id)),
  }
}

/** Podclubs whose detail is remembered put together, at most (each part is kept apart too). */
const MAX_DETAILS = 10_000

/**
 * A podclub's detail reader for one database, its shared part put together from parts kept
 * apart (`cachedByVersion`): the podclub's texts while the `podclubs` version stands, its seats
 * and who takes part while its own seats' version (`seats:<id>`) does too, and each participant's
 * cred while their own seats' version (`member_seats:<id>`) does. A seat in another podclub
 * leaves it be; a seat in this one reads its seats again (on PGlite inside the seat's own
 * transaction, `keptInWrites`), and the cred of a member whose seats changed. A request reads the
 * versions of every part once and answers the detail put together last while they stand, so a
 * podclub many people open at once costs its queries once, on either engine.
 */
export function createPodclubDetailReader(db: Db) {
  const reader = cacheVersionsOf(db)
  const texts = cachedByVersion(db, DETAIL_TEXT_READ, (podclubId: number) =>
    readDetailText(db, podclubId),
  )
  const seats = cachedManyByVersion(db, DETAIL_SEATS_READ, (ids, on) => readDetailSeats(on, ids), {
    keptInWrites: true,
  })
  const cred = cachedManyByVersion(db, CRED_READ, (ids, on) => readCred(on, ids))
  /** Each podclub's shared part put together last, and the versions of its parts. */
  const last = new Map<number, { names: string[]; stamp: number[]; core: DetailCore | null }>()

  const readCore = async (podclubId: number): Promise<DetailCore | null> => {
    const memo = last.get(podclubId)
    let names: string[] = memo?.names ?? [...DETAIL_TEXT_READ.versions]
    for (;;) {
      const versions = await reader.current(names)
      if (memo?.names === names && sameStamp(stampOf(names, versions), memo.stamp)) return memo.core
      const text = await texts(podclubId, versions)
      let wanted: string[] = [...DETAIL_TEXT_READ.versions]
      let core: DetailCore | null = null
      if (text) {
        wanted = [...wanted, ...seats.names([podclubId])]
        if (!holdsAll(versions, wanted)) {
          names = wanted
          continue
        }
        const seat = await seats.get(podclubId, versions)
        const ids = [text.podmeisterId, ...seat.participants.map((p) => p.id)]
        wanted = [...wanted, ...cred.names(ids)]
        // A participant the versions were not read for: read them all again.
        if (!holdsAll(versions, wanted)) {
          names = wanted
          continue
        }
        core = detailCore(text, seat, await cred.many(ids, versions))
      }
      if (last.size >= MAX_DETAILS) last.clear()
      last.set(podclubId, { names: wanted, stamp: stampOf(wanted, versions), core })
      return core
    }
  }
  return (viewer: AuthUser | null, podclubId: number) =>
    getPodclubDetail(db, viewer, podclubId, readCore)
}

/**
 * Whether a viewer's detail is the shared part alone (made of cached reads, `readCore`):
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
