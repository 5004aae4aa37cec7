/**
 * The page's own addresses, as the client router draws them and the server answers them with
 * the page. `secretParams` names the parts of an address that are secrets (a welcome code, a
 * reset token, a vote code): the server's log never writes them.
 */
export type PageRoute = {
  /** React Router's pattern: `:name` is one segment, `:name?` an optional one. */
  readonly path: string
  readonly secretParams?: readonly string[]
}

export const pageRoutes = [
  { path: '/' },
  { path: '/home' },
  { path: '/profile' },
  { path: '/propose' },
  { path: '/podclubs/:id' },
  { path: '/about' },
  { path: '/login' },
  // Welcome codes are single-use secrets; the club code is not, but the two look alike.
  { path: '/register/:code?', secretParams: ['code'] },
  { path: '/forgot-password' },
  { path: '/password-reset/:token', secretParams: ['token'] },
  { path: '/waitlist' },
  { path: '/confirm-email/:uid/:token', secretParams: ['token'] },
  { path: '/qr-invite' },
  { path: '/polls/:pollId?/:voteCode?', secretParams: ['voteCode'] },
  { path: '/controlpanel' },
  { path: '/unsubscribe/:uid/:token', secretParams: ['token'] },
] as const satisfies readonly PageRoute[]
