import { vi } from 'vitest'
import type { z } from 'zod'
import type { DetailError, ValidationError } from '#contract/common'

/**
 * Stubs `fetch` with handlers keyed like 'GET /whoami/' (paths under /api/v1, ':name' for a
 * parameter). Replies are built from the contract's schemas, so a mock can't drift from what
 * the server is allowed to answer. A request nobody handles logs a console.error, which fails
 * the test.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type RouteKey = `${Method} /${string}`

export type MockRequest = {
  method: Method
  path: string
  url: URL
  params: Record<string, string>
  headers: Headers
  body: unknown
}

export type MockReply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'text'; status: number; text: string; contentType: string }
  | { kind: 'network-error' }

export type Handler = (request: MockRequest) => MockReply | Promise<MockReply>
export type Handlers = Partial<Record<RouteKey, Handler>>

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

function compile(key: string) {
  const [method = '', pattern = ''] = key.split(' ')
  const names: string[] = []
  const source = pattern.replace(/:([A-Za-z]\w*)/g, (_, name: string) => {
    names.push(name)
    return '([^/]+)'
  })
  return { method, regex: new RegExp(`^${source}$`), names }
}

function toUrl(input: RequestInfo | URL) {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
  return new URL(href, 'http://localhost')
}

export function mockApi(initial: Handlers = {}) {
  const handlers: Handlers = { ...initial }
  const calls: MockRequest[] = []

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = toUrl(input)
    const method = (init.method ?? 'GET').toUpperCase() as Method
    const path = url.pathname.replace(/^\/api\/v1/, '')
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

    for (const [key, handler] of Object.entries(handlers)) {
      const route = compile(key)
      const match = route.method === method ? route.regex.exec(path) : null
      if (!match || !handler) continue
      route.names.forEach((name, index) => {
        request.params[name] = decodeURIComponent(match[index + 1] ?? '')
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
    on(key: RouteKey, handler: Handler) {
      handlers[key] = handler
    },
    callsTo(key: RouteKey) {
      const route = compile(key)
      return calls.filter((call) => call.method === route.method && route.regex.test(call.path))
    },
  }
}

export type MockApi = ReturnType<typeof mockApi>
