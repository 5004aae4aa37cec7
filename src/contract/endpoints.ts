import * as accounts from './accounts'
import * as auth from './auth'
import * as config from './config'
import * as controlPanel from './control-panel'
import { type Endpoint, type EndpointsOf } from './endpoint'
import * as invites from './invites'
import * as jobs from './jobs'
import * as live from './live'
import * as podclubDetail from './podclub-detail'
import * as podclubs from './podclubs'
import * as polls from './polls'
import * as profile from './profile'
import * as proposals from './proposals'
import * as suggestions from './suggestions'

/*
 * Every endpoint the contract declares, by name: `getWhoamiEndpoint` in auth.ts is `getWhoami`
 * here. The page's test mocks are keyed by these names, and a server test checks that each is
 * registered. Features import their endpoints from their own file; this module is for the
 * places that need them all.
 */

const modules = [
  accounts,
  auth,
  config,
  controlPanel,
  invites,
  jobs,
  live,
  podclubDetail,
  podclubs,
  polls,
  profile,
  proposals,
  suggestions,
] as const

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never

export type Endpoints = UnionToIntersection<EndpointsOf<(typeof modules)[number]>>
export type EndpointName = keyof Endpoints & string

function collect(): Endpoints {
  const all: Record<string, Endpoint> = {}
  for (const module of modules) {
    for (const [exportName, value] of Object.entries(module)) {
      const name = /^(\w+)Endpoint$/.exec(exportName)?.[1]
      if (!name) continue
      // Two features naming an endpoint alike would make one of them unreachable by name.
      if (name in all) throw new Error(`Two endpoints are named ${exportName}`)
      all[name] = value as Endpoint
    }
  }
  return all as Endpoints
}

export const endpoints: Endpoints = collect()
