/*
 * The paths of the addresses podclub hands out: in e-mails, calendar entries, share texts and
 * the admin's console. Each is written once here; the server puts APP_URL in front of them
 * (server/lib/links.ts), the page its own address. Secrets and codes are encoded, so a path
 * never changes meaning whatever they hold.
 */

const segment = (value: string | number) => encodeURIComponent(String(value))

export const linkPaths = {
  /** The podclub feed, without the splash. */
  home: () => '/home?skipSplash=true',
  podclub: (podclubId: number) => `/podclubs/${segment(podclubId)}`,
  /** The poll window, ready to vote when the code is given. */
  poll: (pollId: number, voteCode?: string) =>
    `/polls/${segment(pollId)}${voteCode ? `/${segment(voteCode)}` : ''}`,
  /** Sign-up with an invite code (the club's reusable one or a single-use welcome code). */
  register: (inviteCode: string) => `/register/${segment(inviteCode)}`,
  /** The page that turns monthly blasts off. */
  unsubscribe: (userId: number, token: string) =>
    `/unsubscribe/${segment(userId)}/${segment(token)}`,
  /** RFC 8058 one-click unsubscribe: mail clients POST to it (a server route, not a page). */
  unsubscribeOneClick: (userId: number, token: string) =>
    `/unsubscribe/one-click/${segment(userId)}/${segment(token)}`,
  /** A member's secret calendar feed (a server route, not a page). */
  calendarFeed: (token: string) => `/calendar/${segment(token)}.ics`,
  login: () => '/login',
  forgotPassword: () => '/forgot-password',
  passwordReset: (token: string) => `/password-reset/${segment(token)}`,
  confirmEmail: (userId: number, token: string) =>
    `/confirm-email/${segment(userId)}/${segment(token)}`,
} as const

export type LinkPaths = typeof linkPaths
