import type { z } from 'zod'
import type { PathParamName } from './path'

/*
 * One declaration per API call: method, path, the schemas of what goes over the wire, who may
 * call it and which path parameters are secrets. The server registers its route from it
 * (server/lib/route.ts), the page calls through it (client/lib/api-client.ts), the page's test
 * mocks are keyed by it, and the log masks the secrets it names. See docs/decisions/017.
 */

/** Where the API's calls live: an endpoint's path is under it, unless it is `outsideApi`. */
export const API_PREFIX = '/api/v1'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Who may call an endpoint: anyone, a logged-in member, or a super user (an operator). */
export const accessLevels = ['public', 'member', 'superuser'] as const
export type Access = (typeof accessLevels)[number]

/**
 * A body whose rules depend on the time ("one to seven months ahead"): judged by the app's
 * clock on the server, the browser's on the page.
 */
export type ClockedSchema = (now: () => Date) => z.ZodType

export type Endpoint = {
  readonly method: HttpMethod
  /** Under API_PREFIX (ending in `/`, as every API path does); `:name` for a parameter. */
  readonly path: `/${string}`
  readonly access: Access
  /** For the API description (/api/docs). */
  readonly summary?: string
  readonly tags?: readonly string[]
  /** Checked by the server; an endpoint without one reads its parameters itself. */
  readonly params?: z.ZodType
  readonly query?: z.ZodType
  readonly headers?: z.ZodType
  readonly body?: z.ZodType | ClockedSchema
  /** The answer's schema by status; none for an answer that is not JSON (a calendar file). */
  readonly response?: { readonly [status: number]: z.ZodType }
  /** Path parameters that are secrets (a code, a token): the log writes `***` for them. */
  readonly secretParams?: readonly string[]
  /**
   * A route of the app outside the API's scope (no session, no CSRF): mail clients and calendar
   * apps call it, the page never does. Its path is from the site's root.
   */
  readonly outsideApi?: true
}

/** Declares an endpoint; `secretParams` may only name parameters its path has. */
export function defineEndpoint<const E extends Endpoint>(
  endpoint: E & { readonly secretParams?: readonly PathParamName<E['path']>[] },
): E {
  return endpoint
}

/** The body's schema, with a clocked one judged against `now`. */
export type BodySchemaOf<E extends Endpoint> = E['body'] extends ClockedSchema
  ? ReturnType<E['body']>
  : E['body']

export function bodySchemaOf(endpoint: Endpoint, now: () => Date): z.ZodType | undefined {
  const body = endpoint.body
  return typeof body === 'function' ? body(now) : body
}

export type SuccessStatus = 200 | 201 | 202 | 204

/** The schema (or union of schemas) of a successful answer. */
export type SuccessSchemaOf<E extends Endpoint> = NonNullable<E['response']>[Extract<
  keyof NonNullable<E['response']>,
  SuccessStatus
>]

/** What a successful answer carries in its `{ data }`. */
export type DataOf<E extends Endpoint> =
  z.output<SuccessSchemaOf<E>> extends { data: infer D } ? D : never

/**
 * What the page needs of a declaration at run time: its method and path. The rest (schemas,
 * access) it knows as types only (`E`), so its first load carries no zod: the build writes each
 * endpoint's route into the module `virtual:api-routes` (vite.config.ts), from these same
 * declarations.
 */
export type ApiRoute<E extends Endpoint = Endpoint> = Pick<E, 'method' | 'path'> & {
  readonly outsideApi?: true
  /** Types only: the declaration this route is of. */
  readonly __endpoint?: E
}

/** The routes of every endpoint of a registry, by name: what `virtual:api-routes` exports. */
export function routesOf(registry: EndpointRegistry): Record<string, ApiRoute> {
  return Object.fromEntries(
    Object.entries(registry).map(([name, { method, path, outsideApi }]) => [
      name,
      outsideApi ? { method, path, outsideApi } : { method, path },
    ]),
  )
}

/** The header that makes a retried write repeat its first answer (the seat toggles, podclubs.ts). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key'

/** The API's endpoints, by name: what `endpoints.ts` collects from every contract file. */
export type EndpointRegistry = { readonly [name: string]: Endpoint }

/** `getWhoamiEndpoint` is registered as `getWhoami`. */
export type EndpointsOf<M> = {
  [
    K in keyof M as M[K] extends Endpoint
      ? K extends `${infer Name}Endpoint`
        ? Name
        : never
      : never
  ]: M[K]
}
