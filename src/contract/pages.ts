import { buildPath, type PathParamName } from './path'

/*
 * The page's own addresses, written once: the client router renders them, the server answers
 * them with the page and masks their secrets in its log, and the links podclub hands out (in
 * e-mails, calendar entries, share texts and the admin's console) are built from them. The
 * server puts APP_URL in front of a link (server/lib/links.ts), the page its own address.
 */

/**
 * A page address; `secretParams` names the parts that are secrets, never logged; `idParams` the
 * parts that must be a record's id (`isPageId`), anything else being a page that does not exist.
 */
export type PageRoute = {
  /** React Router's pattern: `:name` is one segment, `:name?` an optional one. */
  readonly path: string
  readonly secretParams?: readonly string[]
  readonly idParams?: readonly string[]
}

type PageOptions<P extends string> = {
  readonly secretParams?: readonly PathParamName<P>[]
  readonly idParams?: readonly PathParamName<P>[]
}

function page<const P extends string>(
  path: P,
  options: PageOptions<P> = {},
): { readonly path: P } & PageOptions<P> {
  return { path, ...options }
}

const MAX_ID = 2_147_483_647

/** An id as the links podclub hands out write it: digits only, from 1 to the largest id. */
export function isPageId(value: string) {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_ID
}

export const pages = {
  root: page('/'),
  home: page('/home'),
  profile: page('/profile'),
  propose: page('/propose'),
  podclub: page('/podclubs/:id', { idParams: ['id'] }),
  about: page('/about'),
  login: page('/login'),
  // Welcome codes are single-use secrets; the club code is not, but the two look alike.
  register: page('/register/:code?', { secretParams: ['code'] }),
  forgotPassword: page('/forgot-password'),
  passwordReset: page('/password-reset/:token', { secretParams: ['token'] }),
  waitlist: page('/waitlist'),
  confirmEmail: page('/confirm-email/:uid/:token', { secretParams: ['token'] }),
  qrInvite: page('/qr-invite'),
  polls: page('/polls/:pollId?/:voteCode?', { secretParams: ['voteCode'], idParams: ['pollId'] }),
  controlPanel: page('/controlpanel'),
  unsubscribe: page('/unsubscribe/:uid/:token', { secretParams: ['token'] }),
} as const satisfies Record<string, PageRoute>

export const pageRoutes: readonly PageRoute[] = Object.values(pages)

/** The links to pages podclub hands out; parameters are percent-encoded. */
export const linkPaths = {
  /** The podclub feed, without the splash. */
  home: () => buildPath(pages.home.path, {}, { skipSplash: 'true' }),
  podclub: (podclubId: number) => buildPath(pages.podclub.path, { id: podclubId }),
  /** The poll window, ready to vote when the code is given. */
  poll: (pollId: number, voteCode?: string) => buildPath(pages.polls.path, { pollId, voteCode }),
  /** Sign-up with an invite code (the club's reusable one or a single-use welcome code). */
  register: (inviteCode: string) => buildPath(pages.register.path, { code: inviteCode }),
  /** The page that turns monthly blasts off. */
  unsubscribe: (userId: number, token: string) =>
    buildPath(pages.unsubscribe.path, { uid: userId, token }),
  login: () => buildPath(pages.login.path, {}),
  forgotPassword: () => buildPath(pages.forgotPassword.path, {}),
  passwordReset: (token: string) => buildPath(pages.passwordReset.path, { token }),
  confirmEmail: (userId: number, token: string) =>
    buildPath(pages.confirmEmail.path, { uid: userId, token }),
} as const

export type LinkPaths = typeof linkPaths
