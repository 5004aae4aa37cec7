import type { SessionUser, Whoami } from '#contract/auth'
import type { Profile } from '#contract/profile'

export const member: SessionUser = {
  username: 'ada.lovelace',
  email: 'ada@example.com',
  is_superuser: false,
}

export const superuser: SessionUser = {
  username: 'grace',
  email: 'grace@example.com',
  is_superuser: true,
}

export function whoamiOf(user: SessionUser | null): Whoami {
  return user ? { isAuthenticated: true, user } : { isAuthenticated: false, user: null }
}

/** `member`'s profile as the server answers it: no podclubs, five cred, three attended, two hosted. */
export function profileOf(
  profile: Partial<Profile['user']['profile']> = {},
  rest: Partial<Omit<Profile, 'user'>> = {},
): Profile {
  return {
    user: {
      username: member.username,
      email: member.email,
      profile: {
        cred: 5,
        city: '',
        member_since: '2026-01-15T17:00:00.000Z',
        completed_podclub_count: 3,
        completed_podmeister_count: 2,
        ...profile,
      },
    },
    upcoming_podclubs: [],
    past_podclubs: [],
    calendar_url: 'http://podclub.test/calendar/secret.ics',
    ...rest,
  }
}
