import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { whoamiResponseSchema } from '#contract/auth'
import { envelope } from '#contract/common'
import { member, whoamiOf } from '#client/testing/fixtures'
import {
  mockApi,
  networkError,
  reply,
  replyError,
  replyText,
  type MockApi,
} from '#client/testing/mock-api'
import { api, ApiError, setUnauthorizedHandler } from './api-client'

const itemSchema = envelope(z.object({ id: z.number(), title: z.string() }))

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected the call to fail')
}

describe('api-client requests', () => {
  let mock: MockApi

  beforeEach(() => {
    mock = mockApi({
      'GET /items/:id/': ({ params }) =>
        reply(itemSchema, { data: { id: Number(params.id), title: 'one' } }),
      'POST /items/': ({ body }) =>
        reply(itemSchema, { data: { id: 2, ...(body as { title: string }) } }, 201),
    })
  })

  it('prefixes /api/v1, sends cookies and returns the parsed data', async () => {
    await expect(api.get('/items/1/', itemSchema)).resolves.toEqual({ id: 1, title: 'one' })

    const [input, init] = mock.fetch.mock.calls[0] ?? []
    expect(input).toBe('/api/v1/items/1/')
    expect(init).toMatchObject({ method: 'GET', credentials: 'include' })
    expect(new Headers(init?.headers).get('Accept')).toBe('application/json')
  })

  it('adds the trailing slash and the query string', async () => {
    await api.get('/items/1', itemSchema, { params: { page: 2, q: undefined } })
    expect(mock.fetch.mock.calls[0]?.[0]).toBe('/api/v1/items/1/?page=2')
  })

  it('sends JSON bodies and counts any 2xx as success', async () => {
    await expect(api.post('/items/', itemSchema, { body: { title: 'two' } })).resolves.toEqual({
      id: 2,
      title: 'two',
    })
    const call = mock.callsTo('POST /items/')[0]
    expect(call?.body).toEqual({ title: 'two' })
    expect(call?.headers.get('Content-Type')).toBe('application/json')
  })

  it('rejects an answer that breaks the contract schema', async () => {
    mock.on('GET /items/:id/', () => ({ kind: 'json', status: 200, body: { data: { id: 'x' } } }))
    const error = await failureOf(api.get('/items/1/', itemSchema))
    expect(error.message).toBe('An error occurred')
    expect(error.cause).toBeInstanceOf(z.ZodError)
  })

  it('treats a 3xx answer as a failure', async () => {
    mock.on('GET /items/:id/', () => replyError(304))
    const error = await failureOf(api.get('/items/1/', itemSchema))
    expect(error.status).toBe(304)
  })
})

describe('api-client CSRF header', () => {
  beforeEach(() => {
    document.cookie = 'csrftoken=token%2Babc'
    document.cookie = 'other=1'
  })

  it.each(['post', 'put', 'patch', 'delete'] as const)(
    'sends X-CSRFToken from the csrftoken cookie on %s',
    async (method) => {
      const mock = mockApi({
        [`${method.toUpperCase()} /items/1/`]: () =>
          reply(itemSchema, { data: { id: 1, title: 't' } }),
      } as Parameters<typeof mockApi>[0])
      await api[method]('/items/1/', itemSchema)
      expect(mock.calls[0]?.headers.get('X-CSRFToken')).toBe('token+abc')
    },
  )

  it('fetches a fresh token through whoami and retries a write refused for CSRF, once', async () => {
    let attempts = 0
    const mock = mockApi({
      'POST /items/': () => {
        attempts += 1
        if (attempts === 1) {
          document.cookie = 'csrftoken=fresh'
          return replyError(403, { detail: 'CSRF Failed', code: 'CSRF_FAILED' })
        }
        return reply(itemSchema, { data: { id: 3, title: 'again' } })
      },
      'GET /whoami/': () => reply(whoamiResponseSchema, { data: whoamiOf(null) }),
    })
    await expect(api.post('/items/', itemSchema, { body: { title: 'again' } })).resolves.toEqual({
      id: 3,
      title: 'again',
    })
    expect(mock.callsTo('GET /whoami/')).toHaveLength(1)
    expect(mock.callsTo('POST /items/').map((c) => c.headers.get('X-CSRFToken'))).toEqual([
      'token+abc',
      'fresh',
    ])
  })

  it('gives up after one retry and reports the refusal', async () => {
    mockApi({
      'POST /items/': () => replyError(403, { detail: 'CSRF Failed', code: 'CSRF_FAILED' }),
      'GET /whoami/': () => reply(whoamiResponseSchema, { data: whoamiOf(null) }),
    })
    const error = await failureOf(api.post('/items/', itemSchema))
    expect(error.status).toBe(403)
    expect(error.message).toBe('CSRF Failed')
  })

  it('treats a malformed csrftoken cookie as missing: the write still goes out, without it', async () => {
    document.cookie = 'csrftoken=%E0%A4%A'
    const mock = mockApi({
      'POST /items/': () => reply(itemSchema, { data: { id: 4, title: 't' } }),
    })
    await expect(api.post('/items/', itemSchema)).resolves.toEqual({ id: 4, title: 't' })
    expect(mock.calls[0]?.headers.has('X-CSRFToken')).toBe(false)
  })

  it('does not send it on GET', async () => {
    const mock = mockApi({
      'GET /items/1/': () => reply(itemSchema, { data: { id: 1, title: 't' } }),
    })
    await api.get('/items/1/', itemSchema)
    expect(mock.calls[0]?.headers.has('X-CSRFToken')).toBe(false)
  })
})

describe('api-client error messages (spec global rules)', () => {
  const fail = async (answer: Parameters<MockApi['on']>[1]) => {
    mockApi({ 'GET /items/1/': answer })
    return failureOf(api.get('/items/1/', itemSchema))
  }

  it('uses a plain text body first', async () => {
    const error = await fail(() => replyText(400, 'Plain words from the server'))
    expect(error).toMatchObject({ status: 400, message: 'Plain words from the server' })
  })

  it('uses detail, and keeps the error code', async () => {
    const error = await fail(() =>
      replyError(409, { detail: 'No seats left', code: 'NO_SEATS_LEFT' }),
    )
    expect(error).toMatchObject({ status: 409, message: 'No seats left', code: 'NO_SEATS_LEFT' })
  })

  it('prefers detail over message and field errors', async () => {
    const error = await fail(() => ({
      kind: 'json',
      status: 400,
      body: { username: ['taken'], message: 'message text', detail: 'detail text' },
    }))
    expect(error.message).toBe('detail text')
  })

  it('uses message when there is no detail', async () => {
    const error = await fail(() => ({
      kind: 'json',
      status: 400,
      body: { non_field_errors: ['first'], message: 'message text' },
    }))
    expect(error.message).toBe('message text')
  })

  it('uses the first non-field error before field errors', async () => {
    const error = await fail(() =>
      replyError(400, { username: ['Username is required'], non_field_errors: ['Bad pair', 'x'] }),
    )
    expect(error.message).toBe('Bad pair')
    expect(error.nonFieldErrors).toEqual(['Bad pair', 'x'])
  })

  it("uses the first field's first error last, and exposes every field error", async () => {
    const error = await fail(() =>
      replyError(400, {
        username: ['Username must be at least 3 characters', 'second'],
        email: ['Please enter a valid email address'],
      }),
    )
    expect(error.message).toBe('Username must be at least 3 characters')
    expect(error.fieldErrors).toEqual({
      username: ['Username must be at least 3 characters', 'second'],
      email: ['Please enter a valid email address'],
    })
  })

  it.each([
    [403, 'You do not have permission to perform this action'],
    [404, 'Resource not found'],
    [500, 'Internal server error. Please try again later.'],
    [400, 'An error occurred'],
    [502, 'An error occurred'],
  ])('falls back by status when the body says nothing (%i)', async (status, message) => {
    const error = await fail(() => replyError(status))
    expect(error).toMatchObject({ status, message })
  })

  it("quotes a server error's request id after the spec's message, for a member to pass on", async () => {
    const error = await fail(() =>
      replyError(500, {
        detail: 'Internal server error. Please try again later.',
        code: 'INTERNAL',
        request_id: 'b1946ac9-2f0e-4d1b-9c33-0a1f5e7d2c44',
      }),
    )
    expect(error.message).toBe(
      'Internal server error. Please try again later. Reference: b1946ac9-2f0e-4d1b-9c33-0a1f5e7d2c44',
    )
    expect(error.requestId).toBe('b1946ac9-2f0e-4d1b-9c33-0a1f5e7d2c44')
  })

  it('quotes no reference that is not a request id, and none for a refusal', async () => {
    const odd = await fail(() =>
      replyError(500, {
        detail: 'Internal server error. Please try again later.',
        request_id: '<b>x</b>',
      }),
    )
    expect(odd.message).toBe('Internal server error. Please try again later.')
    const refused = await fail(() => replyError(404, { detail: 'Nope', request_id: 'abc-123' }))
    expect(refused.message).toBe('Nope')
    expect(refused.requestId).toBeUndefined()
  })

  it('falls back by status when the JSON body has no message in it', async () => {
    const error = await fail(() => ({ kind: 'json', status: 404, body: { unrelated: 42 } }))
    expect(error.message).toBe('Resource not found')
  })

  it('ignores an HTML error page and falls back by status', async () => {
    const error = await fail(() =>
      replyText(500, '<html><body>Bad gateway</body></html>', 'text/html'),
    )
    expect(error.message).toBe('Internal server error. Please try again later.')
  })

  it('reports a missing response as a network error', async () => {
    const error = await fail(() => networkError())
    expect(error).toMatchObject({
      status: 0,
      isNetworkError: true,
      message: 'Network error occurred. Please check your connection.',
    })
  })

  it('lets a cancelled request through as an abort, not a network error', async () => {
    const controller = new AbortController()
    vi.stubGlobal('fetch', () => {
      controller.abort()
      return Promise.reject(new DOMException('aborted', 'AbortError'))
    })
    const result = api.get('/items/1/', itemSchema, { signal: controller.signal })
    await expect(result).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('api-client 401 rule', () => {
  const onUnauthorized = vi.fn()

  beforeEach(() => {
    onUnauthorized.mockReset()
    setUnauthorizedHandler(onUnauthorized)
  })

  afterEach(() => {
    setUnauthorizedHandler(null)
  })

  it('calls the registered handler on a 401 and still rejects', async () => {
    mockApi({ 'GET /profile/': () => replyError(401, { detail: 'Not logged in' }) })
    const error = await failureOf(api.get('/profile/', itemSchema))
    expect(error.status).toBe(401)
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('also applies to writes', async () => {
    mockApi({ 'POST /register/:id/': () => replyError(401) })
    await failureOf(api.post('/register/4/', itemSchema))
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('leaves whoami and logout alone', async () => {
    mockApi({
      'GET /whoami/': () => replyError(401),
      'POST /logout/': () => replyError(401),
    })
    await failureOf(api.get('/whoami/', whoamiResponseSchema))
    await failureOf(api.post('/logout/', whoamiResponseSchema))
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('leaves a call that opts out alone', async () => {
    mockApi({ 'POST /login/': () => replyError(401, { detail: 'Wrong username or password' }) })
    const error = await failureOf(
      api.post('/login/', whoamiResponseSchema, { ignoreUnauthorized: true }),
    )
    expect(error.message).toBe('Wrong username or password')
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('does not fire on other failures', async () => {
    mockApi({ 'GET /profile/': () => replyError(403) })
    await failureOf(api.get('/profile/', itemSchema))
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('stops once the handler is unregistered', async () => {
    const other = vi.fn()
    const unregister = setUnauthorizedHandler(other)
    unregister()
    mockApi({ 'GET /profile/': () => replyError(401) })
    await failureOf(api.get('/profile/', itemSchema))
    expect(other).not.toHaveBeenCalled()
  })
})

describe('api-client with contract schemas', () => {
  it('parses whoami', async () => {
    mockApi({ 'GET /whoami/': () => reply(whoamiResponseSchema, { data: whoamiOf(member) }) })
    await expect(api.get('/whoami/', whoamiResponseSchema)).resolves.toEqual(whoamiOf(member))
  })
})
