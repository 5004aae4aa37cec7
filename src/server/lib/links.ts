import { unsubscribeOneClickEndpoint } from '#contract/control-panel'
import { linkPaths } from '#contract/pages'
import { buildPath } from '#contract/path'
import { calendarFeedEndpoint } from '#contract/profile'
import type { Env } from './env'

/** The pages' links, and the two server routes podclub hands out, from their declarations. */
const paths = {
  ...linkPaths,
  /** RFC 8058 one-click unsubscribe: mail clients POST to it (a server route, not a page). */
  unsubscribeOneClick: (userId: number, token: string) =>
    buildPath(unsubscribeOneClickEndpoint.path, { uid: userId, token }),
  /** A member's secret calendar feed (a server route, not a page). */
  calendarFeed: (token: string) => buildPath(calendarFeedEndpoint.path, { file: `${token}.ics` }),
}

type Paths = typeof paths

export type Links = {
  [K in keyof Paths]: (...args: Parameters<Paths[K]>) => string
}

/**
 * The absolute addresses podclub hands out, under APP_URL: `links(env).podclub(12)`. The paths
 * come from the contract; settings have already taken any trailing slash off APP_URL, so a
 * link never has two.
 */
export function links(env: Pick<Env, 'APP_URL'>): Links {
  const absolute = Object.entries(paths).map(([name, path]) => [
    name,
    (...args: unknown[]) => `${env.APP_URL}${(path as (...a: unknown[]) => string)(...args)}`,
  ])
  return Object.fromEntries(absolute) as Links
}
