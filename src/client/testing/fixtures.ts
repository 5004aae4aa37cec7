import type { SessionUser, Whoami } from '#contract/auth'

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
