import type { Profile } from '#contract/profile'
import type { Db } from '../../db/client'
import { notFound } from '../../lib/app-error'
import { readCred, readMember, readMemberPodclubs } from './profile.queries'

export { readCred } from './profile.queries'

/** The member's own profile: who they are, their cred, and their upcoming and past podclubs. */
export async function getProfile(db: Db, userId: number): Promise<Profile> {
  const user = await readMember(db, userId)
  if (!user) throw notFound('User')
  const [cred, upcoming, past] = await Promise.all([
    readCred(db, [userId]),
    readMemberPodclubs(db, userId, 'upcoming'),
    readMemberPodclubs(db, userId, 'completed'),
  ])
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
  }
}
