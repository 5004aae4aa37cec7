import { apiRoutes } from 'virtual:api-routes'
import type { z } from 'zod'
import {
  API_PREFIX,
  type ApiRoute,
  type BodySchemaOf,
  type DataOf,
  type Endpoint,
  type HttpMethod,
} from '#contract/endpoint'
import { errorCodes, INTERNAL_ERROR_MESSAGE, type ErrorCode } from '#contract/errors'
import { buildPath, type PathParamName, type PathParams } from '#contract/path'
import type { ApiTransport } from '#contract/page-render'

/**
 * The only module that calls `fetch`, and only through the contract's endpoint declarations:
 * `callApi(apiRoutes.login, { body })` takes the method and path from the declaration's route
 * (`virtual:api-routes`, written from the declarations at build time) and its types from the
 * declaration. The answer is not parsed again here: the server checks every answer against the
 * declaration's schema before it leaves, and the page's first load then carries no zod. Every
 * answer of the API is `{ data }` on success; on failure the message shown to people follows the
 * spec's global rules, in this order: body text, `detail`, `message`, first non-field error,
 * first field error, then a default by status.
 */

export const DEFAULT_ERROR_MESSAGE = 'An error occurred'
export const NETWORK_ERROR_MESSAGE = 'Network error occurred. Please check your connection.'
export const SESSION_EXPIRED_MESSAGE = 'Session expired. Please login again.'

const STATUS_MESSAGES: Partial<Record<number, string>> = {
  403: 'You do not have permission to perform this action',
  404: 'Resource not found',
  500: INTERNAL_ERROR_MESSAGE,
}

const routeKey = (route: ApiRoute) => `${route.method} ${route.path}`

// The session checks answer 401 as a normal "nobody is logged in"; treating that as an expired
// session would bounce visitors Home with a toast on every page load.
const UNAUTHORIZED_EXEMPT: ReadonlySet<string> = new Set(
  [apiRoutes.logout, apiRoutes.getWhoami].map(routeKey),
)

const ERROR_CODES: ReadonlySet<string> = new Set(errorCodes)

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Keys of an error body that carry something other than a field's messages. */
const NON_FIELD_KEYS = new Set(['detail', 'message', 'code', 'non_field_errors', 'request_id'])

/** The server's request ids (`X-Request-Id`): anything else is not shown as a reference. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  /** HTTP status, or 0 when no response arrived at all. */
  readonly status: number
  /** Messages per field of a 400 validation answer, keyed by the API's field names. */
  readonly fieldErrors: FieldErrors
  readonly nonFieldErrors: string[]
  readonly code: ErrorCode | undefined
  /** The id of the request a server error answered, which the message quotes as its reference. */
  readonly requestId: string | undefined

  constructor(init: {
    status: number
    message: string
    fieldErrors?: FieldErrors
    nonFieldErrors?: string[]
    code?: ErrorCode
    requestId?: string
    cause?: unknown
  }) {
    super(init.message, { cause: init.cause })
    this.name = 'ApiError'
    this.status = init.status
    this.fieldErrors = init.fieldErrors ?? {}
    this.nonFieldErrors = init.nonFieldErrors ?? []
    this.code = init.code
    this.requestId = init.requestId
  }

  get isNetworkError() {
    return this.status === 0
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

/** The API's 404: what was asked for does not exist (or is not the asker's to see). */
export function isNotFoundError(error: unknown): error is ApiError {
  return isApiError(error) && error.status === 404
}

type UnauthorizedHandler = () => void
let unauthorizedHandler: UnauthorizedHandler | null = null

/**
 * The app registers what a 401 means (clear the user, go Home, toast); the client stays free of
 * router and cache. Returns a function that unregisters it.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null) {
  unauthorizedHandler = handler
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null
  }
}

/** How a request reaches the API: the browser's `fetch`, read when called (tests stub it). */
const browserTransport: ApiTransport = (url, init) => fetch(url, init)
let transport = browserTransport

/**
 * Sends the API's requests another way: rendering a page on the server (entry-server.tsx), they
 * go to the server's own routes with the visitor's cookie instead of over the network. Without
 * one, the browser's `fetch` again.
 */
export function setApiTransport(send: ApiTransport | null) {
  transport = send ?? browserTransport
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>

/** An endpoint the page calls: one of the API's, answering JSON. */
export type ApiEndpoint = Endpoint & {
  readonly response: { readonly [status: number]: z.ZodType }
  readonly outsideApi?: undefined
}

/** A route the page calls, typed by its declaration (or, in tests, a declaration itself). */
type RouteTo<E extends Endpoint> = ApiRoute<E> | E

type ParamsOption<E extends Endpoint> = [PathParamName<E['path']>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<E['path']> }

type BodyOption<E extends Endpoint> = E extends { body: unknown }
  ? undefined extends z.input<BodySchemaOf<E>>
    ? { body?: z.input<BodySchemaOf<E>> }
    : { body: z.input<BodySchemaOf<E>> }
  : { body?: undefined }

type QueryOption<E extends Endpoint> = E extends { query: z.ZodType }
  ? { query?: z.input<E['query']> & QueryParams }
  : { query?: undefined }

export type CallOptions<E extends Endpoint> = ParamsOption<E> &
  BodyOption<E> &
  QueryOption<E> & {
    signal?: AbortSignal
    /**
     * Skip the global 401 rule for this call. Meant for calls where a 401 answers the question
     * itself (such as wrong credentials at login) rather than meaning the session ended.
     */
    ignoreUnauthorized?: boolean
    /** Extra request headers, such as `Idempotency-Key`; sent again as they are on a retry. */
    headers?: Record<string, string>
  }

type RequestOptions = {
  params?: Record<string, string | number | undefined>
  query?: QueryParams
  body?: unknown
  signal?: AbortSignal
  ignoreUnauthorized?: boolean
  headers?: Record<string, string>
}

/** The address of an endpoint, for what the browser opens itself (a calendar file). */
export function apiUrl<E extends Endpoint>(
  endpoint: RouteTo<E>,
  params: PathParams<E['path']>,
  query?: QueryParams,
) {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value))
  }
  const queryString = search.toString()
  return `${API_PREFIX}${buildPath(endpoint.path, params)}${queryString ? `?${queryString}` : ''}`
}

export function readCookie(name: string) {
  if (typeof document === 'undefined') return undefined
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key !== name) continue
    // A malformed value (set by hand, or by another app on the domain) reads as missing: the
    // write then fetches a fresh token through whoami instead of throwing.
    try {
      return decodeURIComponent(rest.join('='))
    } catch {
      return undefined
    }
  }
  return undefined
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

function messagesOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value] : []
  if (Array.isArray(value)) return value.filter((item): item is string => !!nonEmptyString(item))
  return []
}

async function readErrorBody(response: Response): Promise<unknown> {
  let text: string
  try {
    text = await response.text()
  } catch {
    return undefined
  }
  if (!text.trim()) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    // A proxy's HTML error page is markup, not a message a person should read in a toast.
    const contentType = response.headers.get('content-type') ?? ''
    return contentType.includes('text/html') ? undefined : text
  }
}

/**
 * Turns an error answer into an ApiError, with the message picked by the spec's global rules. A
 * server error's message ends with the request's id (from the body, else the header), so the
 * toast gives a member a reference to quote.
 */
export function toApiError(
  status: number,
  body: unknown,
  headerRequestId?: string | null,
): ApiError {
  const fieldErrors: FieldErrors = {}
  let nonFieldErrors: string[] = []
  let code: ErrorCode | undefined
  let message: string | undefined

  if (typeof body === 'string') {
    message = nonEmptyString(body)?.trim()
  } else if (isRecord(body)) {
    for (const [key, value] of Object.entries(body)) {
      if (NON_FIELD_KEYS.has(key)) continue
      const messages = messagesOf(value)
      if (messages.length > 0) fieldErrors[key] = messages
    }
    nonFieldErrors = messagesOf(body.non_field_errors)
    code =
      typeof body.code === 'string' && ERROR_CODES.has(body.code)
        ? (body.code as ErrorCode)
        : undefined
    message =
      nonEmptyString(body.detail) ??
      nonEmptyString(body.message) ??
      nonFieldErrors[0] ??
      Object.values(fieldErrors)[0]?.[0]
  }

  const given = isRecord(body) ? body.request_id : undefined
  const requestId = [given, headerRequestId].find(
    (id): id is string => typeof id === 'string' && REQUEST_ID.test(id),
  )
  const text = message ?? STATUS_MESSAGES[status] ?? DEFAULT_ERROR_MESSAGE
  return new ApiError({
    status,
    message: status >= 500 && requestId ? `${text} Reference: ${requestId}` : text,
    fieldErrors,
    nonFieldErrors,
    code,
    ...(status >= 500 && requestId ? { requestId } : {}),
  })
}

function isAbort(error: unknown, signal?: AbortSignal) {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError')
}

/** Calls an endpoint of the API and answers the `data` of its success. */
export async function callApi<E extends ApiEndpoint>(
  endpoint: RouteTo<E>,
  ...[options]: object extends CallOptions<E>
    ? [options?: CallOptions<E>]
    : [options: CallOptions<E>]
): Promise<DataOf<E>> {
  const request = (options ?? {}) as RequestOptions
  try {
    return (await sendRequest(endpoint, request)) as DataOf<E>
  } catch (error) {
    // A write refused only for its CSRF token (a missing cookie, or one signed before the server's
    // secret changed): whoami hands out a fresh token, and the write is tried once more.
    if (
      isApiError(error) &&
      error.code === 'CSRF_FAILED' &&
      MUTATING_METHODS.has(endpoint.method)
    ) {
      await transport(apiUrl(apiRoutes.getWhoami, {}), {
        credentials: 'include',
        signal: request.signal,
      }).catch(() => undefined)
      return (await sendRequest(endpoint, request)) as DataOf<E>
    }
    throw error
  }
}

async function sendRequest(endpoint: ApiRoute, options: RequestOptions): Promise<unknown> {
  const method: HttpMethod = endpoint.method
  const headers = new Headers({ ...options.headers, Accept: 'application/json' })
  const hasBody = options.body !== undefined
  if (hasBody) headers.set('Content-Type', 'application/json')
  if (MUTATING_METHODS.has(method)) {
    const csrfToken = readCookie('csrftoken')
    if (csrfToken) headers.set('X-CSRFToken', csrfToken)
  }

  let response: Response
  try {
    response = await transport(
      apiUrl(endpoint, (options.params ?? {}) as PathParams<string>, options.query),
      {
        method,
        headers,
        credentials: 'include',
        body: hasBody ? JSON.stringify(options.body) : undefined,
        signal: options.signal,
      },
    )
  } catch (error) {
    // A cancelled query is not a failure to report; TanStack Query expects the abort back.
    if (isAbort(error, options.signal)) throw error
    throw new ApiError({ status: 0, message: NETWORK_ERROR_MESSAGE, cause: error })
  }

  if (response.status < 200 || response.status > 299) {
    const error = toApiError(
      response.status,
      await readErrorBody(response),
      response.headers.get('x-request-id'),
    )
    if (
      response.status === 401 &&
      !options.ignoreUnauthorized &&
      !UNAUTHORIZED_EXEMPT.has(routeKey(endpoint))
    ) {
      unauthorizedHandler?.()
    }
    throw error
  }

  let json: unknown
  try {
    json = JSON.parse(await response.text()) as unknown
  } catch (cause) {
    throw new ApiError({ status: response.status, message: DEFAULT_ERROR_MESSAGE, cause })
  }
  // Every success of the API is `{ data }`; anything else broke the contract.
  if (typeof json !== 'object' || json === null || !('data' in json)) {
    throw new ApiError({
      status: response.status,
      message: DEFAULT_ERROR_MESSAGE,
      cause: new Error(`An answer without data from ${routeKey(endpoint)}`),
    })
  }
  return json.data
}
