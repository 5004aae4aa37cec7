import type { MyData, Profile } from '#contract/profile'
import type { AppDeps } from '../../deps'
import { cachedManyByVersion, type CachedRead } from '../../db/cache-versions'
import type { Db, Tx } from '../../db/client'
import { notFound } from '../../lib/app-error'
import { calendarFeedUrl } from '../calendar/calendar.service'
import { readCred, readMember, readMemberPodclubs, readMyData } from './profile.queries'

export { readCred } from './profile.queries'

/** The member's own profile: who they are, their cred, and their upcoming and past podclubs. */
export async function getProfile(
  deps: AppDeps,
  userId: number,
  db: Db | Tx = deps.db,
): Promise<Profile> {
  const user = await readMember(db, userId)
  if (!user) throw notFound('User')
  const [cred, upcoming, past] = await Promise.all([
    readCred(db, [userId]),
    readMemberPodclubs(db, userId, 'upcoming'),
    readMemberPodclubs(db, userId, 'completed'),
  ])
  const calendarUrl = calendarFeedUrl(deps, userId, user.calendarKey)
  const counts = cred.get(userId) ?? { attended: 0, hosted: 0, cred: 0 }
  return {
    user: {
      username: user.username,
      email: user.email,
      profile: {
        cred: counts.cred,
        city: user.city,
        member_since: user.memberSince.toISOString(),
        completed_podclub_count: counts.attended,
        completed_podmeister_count: counts.hosted,
      },
    },
    upcoming_podclubs: upcoming,
    past_podclubs: past,
    calendar_url: calendarUrl,
  }
}

/**
 * A member's own profile: their account, cred, podclubs and calendar link. Kept per member: their
 * own seats (`member_seats:<id>`), not everyone's, are what it shows of the seats.
 */
export const PROFILE_READ: CachedRead = {
  name: 'profile',
  versions: ['podclubs', 'members'],
  perKey: { version: 'member_seats', columns: { registrations: 'user_id' } },
  dependsOn: {
    users: ['id', 'username', 'email', 'city', 'member_since', 'calendar_key'],
    podclubs: ['id', 'status', 'episode_title', 'starts_at', 'podcast_id', 'podmeister_id'],
    registrations: ['podclub_id', 'user_id'],
    podcasts: ['id', 'name', 'picture_link'],
  },
  newRowsSeenThrough: { podcasts: 'podclubs' },
}

/**
 * The profile reader of the routes: a member's profile is remembered while the versions of the
 * podclubs, the members and their own seats stand (`cachedManyByVersion`), on either engine.
 * Callers must not change it.
 */
export function createProfileReader(deps: AppDeps) {
  const profiles = cachedManyByVersion(
    deps.db,
    PROFILE_READ,
    async (userIds: readonly number[], on) =>
      new Map(
        await Promise.all(userIds.map(async (id) => [id, await getProfile(deps, id, on)] as const)),
      ),
  )
  return (userId: number) => profiles.get(userId)
}

/** 'download my data': what podclub keeps about the member (`readMyData`). */
export async function getMyData(deps: AppDeps, userId: number): Promise<MyData> {
  const data = await readMyData(deps.db, userId, deps.clock.now())
  if (!data) throw notFound('User')
  return data
}
