import { linkPaths, type LinkPaths } from '#contract/links'
import type { Env } from './env'

export type Links = {
  [K in keyof LinkPaths]: (...args: Parameters<LinkPaths[K]>) => string
}

/**
 * The absolute addresses podclub hands out, under APP_URL: `links(env).podclub(12)`. The paths
 * come from the contract; settings have already taken any trailing slash off APP_URL, so a
 * link never has two.
 */
export function links(env: Pick<Env, 'APP_URL'>): Links {
  const absolute = Object.entries(linkPaths).map(([name, path]) => [
    name,
    (...args: unknown[]) => `${env.APP_URL}${(path as (...a: unknown[]) => string)(...args)}`,
  ])
  return Object.fromEntries(absolute) as Links
}
