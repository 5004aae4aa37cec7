import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  getWhoamiEndpoint,
  loginEndpoint,
  logoutEndpoint,
  whoamiResponseSchema,
} from '#contract/auth'
import { envelope } from '#contract/common'
import { defineEndpoint } from '#contract/endpoint'
import { toggleRegistrationEndpoint } from '#contract/podclubs'
import { getProfileEndpoint } from '#contract/profile'
import { member, whoamiOf } from '#client/testing/fixtures'
import {
  mockApi,
  networkError,
  reply,
  replyError,
  replyText,
  type Handler,
  type MockApiFor,
} from '#client/testing/mock-api'
import { ApiError, callApi, setUnauthorizedHandler } from './api-client'

const itemSchema = envelope(z.object({ id: z.number(), title: z.string() }))

// Made-up endpoints: these tests are about the client, not about any call of ours.
const getItemEndpoint = defineEndpoint({
  method: 'GET',
  path: '/items/:id/',
  access: 'public',
  query: z.object({ page: z.number().optional(), q: z.string().optional() }),
  response: { 200: itemSchema },
})
const createItemEndpoint = defineEndpoint({
  method: 'POST',
  path: '/items/',
  access: 'public',
  body: z.object({ title: z.string() }).optional(),
  response: { 201: itemSchema },
})
const writeEndpoints = {
  post: defineEndpoint({
    method: 'POST',
    path: '/items/1/',
    access: 'public',
    response: { 200: itemSchema },
  }),
  put: defineEndpoint({
    method: 'PUT',
    path: '/items/1/',
    access: 'public',
    response: { 200: itemSchema },
  }),
  patch: defineEndpoint({
    method: 'PATCH',
    path: '/items/1/',
    access: 'public',
    response: { 200: itemSchema },
  }),
  delete: defineEndpoint({
    method: 'DELETE',
    path: '/items/1/',
    access: 'public',
    response: { 200: itemSchema },
  }),
}
const itemEndpoints = {
  getItem: getItemEndpoint,
  createItem: createItemEndpoint,
  getWhoami: getWhoamiEndpoint,
  ...writeEndpoints,
}
const getItem = (options?: { signal?: AbortSignal }) =>
  callApi(getItemEndpoint, { params: { id: 1 }, ...options })

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
  let mock: MockApiFor<typeof itemEndpoints>

  beforeEach(() => {
    mock = mockApi(
      {
        getItem: ({ params }) =>
          reply(itemSchema, { data: { id: Number(params.id), title: 'one' } }),
        createItem: ({ body }) =>
          reply(itemSchema, { data: { id: 2, ...(body as { title: string }) } }, 201),
      },
      itemEndpoints,
    )
  })

  it('prefixes /api/v1, sends cookies and returns the parsed data', async () => {
    await expect(getItem()).resolves.toEqual({ id: 1, title: 'one' })

    const [input, init] = mock.fetch.mock.calls[0] ?? []
    expect(input).toBe('/api/v1/items/1/')
    expect(init).toMatchObject({ method: 'GET', credentials: 'include' })
    expect(new Headers(init?.headers).get('Accept')).toBe('application/json')
  })

  it('builds the path from the declaration, one encoded segment a parameter, and the query string', async () => {
    mock.on('getItem', ({ params }) => reply(itemSchema, { data: { id: 9, title: params.id } }))
    await expect(
      callApi(getItemEndpoint, { params: { id: 'a/b' }, query: { page: 2, q: undefined } }),
    ).resolves.toEqual({ id: 9, title: 'a/b' })
    expect(mock.fetch.mock.calls[0]?.[0]).toBe('/api/v1/items/a%2Fb/?page=2')
  })

  it('sends JSON bodies and counts any 2xx as success', async () => {
    await expect(callApi(createItemEndpoint, { body: { title: 'two' } })).resolves.toEqual({
      id: 2,
      title: 'two',
    })
    const call = mock.callsTo('createItem')[0]
    expect(call?.body).toEqual({ title: 'two' })
    expect(call?.headers.get('Content-Type')).toBe('application/json')
  })

  it('rejects a success without its { data } envelope', async () => {
    mock.on('getItem', () => ({ kind: 'json', status: 200, body: { id: 1, title: 'x' } }))
    const error = await failureOf(getItem())
    expect(error.message).toBe('An error occurred')
    expect((error.cause as Error).message).toBe('An answer without data from GET /items/:id/')
  })

  it('treats a 3xx answer as a failure', async () => {
    mock.on('getItem', () => replyError(304))
    const error = await failureOf(getItem())
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
      const mock = mockApi(
        { [method]: () => reply(itemSchema, { data: { id: 1, title: 't' } }) },
        itemEndpoints,
      )
      await callApi(writeEndpoints[method])
      expect(mock.calls[0]?.headers.get('X-CSRFToken')).toBe('token+abc')
    },
  )

  it('fetches a fresh token through whoami and retries a write refused for CSRF, once', async () => {
    let attempts = 0
    const mock = mockApi(
      {
        createItem: () => {
          attempts += 1
          if (attempts === 1) {
            document.cookie = 'csrftoken=fresh'
            return replyError(403, { detail: 'CSRF Failed', code: 'CSRF_FAILED' })
          }
          return reply(itemSchema, { data: { id: 3, title: 'again' } }, 201)
        },
        getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(null) }),
      },
      itemEndpoints,
    )
    await expect(callApi(createItemEndpoint, { body: { title: 'again' } })).resolves.toEqual({
      id: 3,
      title: 'again',
    })
    expect(mock.callsTo('getWhoami')).toHaveLength(1)
    expect(mock.callsTo('createItem').map((c) => c.headers.get('X-CSRFToken'))).toEqual([
      'token+abc',
      'fresh',
    ])
  })

  it('gives up after one retry and reports the refusal', async () => {
    mockApi(
      {
        createItem: () => replyError(403, { detail: 'CSRF Failed', code: 'CSRF_FAILED' }),
        getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(null) }),
      },
      itemEndpoints,
    )
    const error = await failureOf(callApi(createItemEndpoint))
    expect(error.status).toBe(403)
    expect(error.message).toBe('CSRF Failed')
  })

  it('treats a malformed csrftoken cookie as missing: the write still goes out, without it', async () => {
    document.cookie = 'csrftoken=%E0%A4%A'
    const mock = mockApi(
      { createItem: () => reply(itemSchema, { data: { id: 4, title: 't' } }, 201) },
      itemEndpoints,
    )
    await expect(callApi(createItemEndpoint)).resolves.toEqual({ id: 4, title: 't' })
    expect(mock.calls[0]?.headers.has('X-CSRFToken')).toBe(false)
  })

  it('does not send it on GET', async () => {
    const mock = mockApi(
      { getItem: () => reply(itemSchema, { data: { id: 1, title: 't' } }) },
      itemEndpoints,
    )
    await getItem()
    expect(mock.calls[0]?.headers.has('X-CSRFToken')).toBe(false)
  })
})

describe('api-client error messages (spec global rules)', () => {
  const fail = async (answer: Handler) => {
    mockApi({ getItem: answer }, itemEndpoints)
    return failureOf(getItem())
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
    const result = getItem({ signal: controller.signal })
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
    mockApi({ getProfile: () => replyError(401, { detail: 'Not logged in' }) })
    const error = await failureOf(callApi(getProfileEndpoint))
    expect(error.status).toBe(401)
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('also applies to writes', async () => {
    mockApi({ toggleRegistration: () => replyError(401) })
    await failureOf(callApi(toggleRegistrationEndpoint, { params: { podclubId: 4 } }))
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('leaves whoami and logout alone', async () => {
    mockApi({
      getWhoami: () => replyError(401),
      logout: () => replyError(401),
    })
    await failureOf(callApi(getWhoamiEndpoint))
    await failureOf(callApi(logoutEndpoint))
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('leaves a call that opts out alone', async () => {
    mockApi({ login: () => replyError(401, { detail: 'Wrong username or password' }) })
    const error = await failureOf(
      callApi(loginEndpoint, {
        body: { username: 'someone', password: 'wrong' },
        ignoreUnauthorized: true,
      }),
    )
    expect(error.message).toBe('Wrong username or password')
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('does not fire on other failures', async () => {
    mockApi({ getProfile: () => replyError(403) })
    await failureOf(callApi(getProfileEndpoint))
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('stops once the handler is unregistered', async () => {
    const other = vi.fn()
    const unregister = setUnauthorizedHandler(other)
    unregister()
    mockApi({ getProfile: () => replyError(401) })
    await failureOf(callApi(getProfileEndpoint))
    expect(other).not.toHaveBeenCalled()
  })
})

describe('api-client with contract schemas', () => {
  it('parses whoami', async () => {
    mockApi({ getWhoami: () => reply(whoamiResponseSchema, { data: whoamiOf(member) }) })
    await expect(callApi(getWhoamiEndpoint)).resolves.toEqual(whoamiOf(member))
  })
})
