import { vi } from 'vitest'
import type { z } from 'zod'
import type { DetailError, ValidationError } from '#contract/common'
import { API_PREFIX, type Endpoint, type EndpointRegistry } from '#contract/endpoint'
import { endpoints, type Endpoints } from '#contract/endpoints'
import type { PathParamName } from '#contract/path'

/**
 * Stubs `fetch` with handlers keyed by the contract's endpoint names (`getWhoami`, `login`:
 * `src/contract/endpoints.ts`), so a mock answers the method and path the declaration has, and
 * no path is written in a test. Replies are built from the contract's schemas, so a mock can't
 * drift from what the server is allowed to answer. A request nobody handles logs a
 * console.error, which fails the test.
 */

export type Method = Endpoint['method']

export type MockRequest<E extends Endpoint = Endpoint> = {
  method: Method
  path: string
  url: URL
  /** The path's parameters, decoded, by the names the declaration gives them. */
  params: `/${string}` extends E['path']
    ? Record<string, string>
    : Record<PathParamName<E['path']>, string>
  headers: Headers
  body: unknown
}

export type MockReply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'text'; status: number; text: string; contentType: string }
  | { kind: 'network-error' }

export type Handler<E extends Endpoint = Endpoint> = (
  request: MockRequest<E>,
) => MockReply | Promise<MockReply>

export type HandlersFor<R extends EndpointRegistry> = { [K in keyof R]?: Handler<R[K]> }
export type Handlers = HandlersFor<Endpoints>

/** A success answer, checked against the contract's response schema. */
export function reply<S extends z.ZodType>(schema: S, body: z.input<S>, status = 200): MockReply {
  schema.parse(body)
  return { kind: 'json', status, body }
}

/** An error answer in one of the shapes CONTRACT.md allows. */
export function replyError(status: number, body?: DetailError | ValidationError): MockReply {
  return { kind: 'json', status, body: body ?? null }
}

export function replyText(status: number, text: string, contentType = 'text/plain'): MockReply {
  return { kind: 'text', status, text, contentType }
}

export function networkError(): MockReply {
  return { kind: 'network-error' }
}

function compile(endpoint: Endpoint) {
  const names: string[] = []
  const source = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name)
    return '([^/]+)'
  })
  return { method: endpoint.method, regex: new RegExp(`^${source}$`), names }
}

function toUrl(input: RequestInfo | URL) {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  return new URL(href, 'http://localhost')
}

/**
 * `registry` is the contract's endpoints unless a test declares its own (the api-client's tests
 * call made-up endpoints).
 */
export function mockApi<R extends EndpointRegistry = Endpoints>(
  initial: HandlersFor<R> = {},
  registry: R = endpoints as unknown as R,
) {
  const handlers: HandlersFor<R> = { ...initial }
  const calls: MockRequest[] = []

  const routeOf = (name: keyof R) => {
    const endpoint = registry[name]
    // A name the contract does not have can only come from a cast; say so rather than 501.
    if (!endpoint) throw new Error(`No endpoint named ${String(name)}`)
    return compile(endpoint)
  }

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = toUrl(input)
    const method = (init.method ?? 'GET').toUpperCase() as Method
    const path = url.pathname.startsWith(`${API_PREFIX}/`)
      ? url.pathname.slice(API_PREFIX.length)
      : url.pathname
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
    const request: MockRequest = {
      method,
      path,
      url,
      params: {},
      headers: new Headers(init.headers),
      body,
    }
    calls.push(request)

    for (const [name, handler] of Object.entries(handlers) as [keyof R, Handler | undefined][]) {
      const route = routeOf(name)
      const match = route.method === method ? route.regex.exec(path) : null
      if (!match || !handler) continue
      route.names.forEach((param, index) => {
        request.params[param] = decodeURIComponent(match[index + 1] ?? '')
      })
      const answer = await handler(request)
      if (answer.kind === 'network-error') throw new TypeError('Failed to fetch')
      if (answer.kind === 'text') {
        return new Response(answer.text, {
          status: answer.status,
          headers: { 'Content-Type': answer.contentType },
        })
      }
      return new Response(answer.body === null ? null : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      })
    }

    console.error(`Unhandled request: ${method} ${path}`)
    return new Response(JSON.stringify({ detail: 'No mock for this request' }), { status: 501 })
  })

  vi.stubGlobal('fetch', fetchMock)

  return {
    fetch: fetchMock,
    calls,
    /** Adds or replaces a handler mid-test. */
    on<K extends keyof R>(name: K, handler: Handler<R[K]>) {
      handlers[name] = handler
    },
    /** The requests that reached the endpoint's method and path. */
    callsTo<K extends keyof R>(name: K) {
      const route = routeOf(name)
      return calls.filter(
        (call) => call.method === route.method && route.regex.test(call.path),
      ) as MockRequest<R[K]>[]
    },
  }
}

export type MockApiFor<R extends EndpointRegistry> = ReturnType<typeof mockApi<R>>
export type MockApi = MockApiFor<Endpoints>
