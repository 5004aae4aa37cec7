import { z } from 'zod'

/**
 * Every error code the server may send in `{ detail, code }`, with the HTTP status it always
 * goes with (CONTRACT.md: 400 invalid input, 401 not logged in, 403 not allowed, 404 unknown
 * thing, 409 a club rule says no, 429 too many attempts). A refusal names its code; the status
 * is read from here, by `AppError` and the error handler, never chosen at the throw site.
 */
export const errorStatuses = {
  BAD_REQUEST: 400,
  NOT_AUTHENTICATED: 401,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  NOT_FOUND: 404,
  INVALID_CREDENTIALS: 400,
  INVALID_INVITE_CODE: 400,
  INVITE_CODE_USED: 409,
  USERNAME_TAKEN: 400,
  EMAIL_TAKEN: 400,
  NO_SEATS_LEFT: 409,
  HINDSIGHT_LIMIT: 409,
  VOTE_CODE_USED: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const

export const errorCodes = Object.keys(errorStatuses) as [
  keyof typeof errorStatuses,
  ...(keyof typeof errorStatuses)[],
]
export const errorCodeSchema = z.enum(errorCodes)
export type ErrorCode = z.infer<typeof errorCodeSchema>

/** `{ detail }` for a single message. */
export const detailErrorSchema = z.object({
  detail: z.string(),
  code: errorCodeSchema.optional(),
  /** On a 500: the request's id (also its `X-Request-Id`), for a member to quote. */
  request_id: z.string().optional(),
})
export type DetailError = z.infer<typeof detailErrorSchema>

/** `{ field: [messages], non_field_errors: [messages] }` for invalid input. */
export const validationErrorSchema = z.record(z.string(), z.array(z.string()))
export type ValidationError = z.infer<typeof validationErrorSchema>

/**
 * Every string the API accepts starts here: PostgreSQL cannot store a NUL character, so it is
 * refused as invalid input rather than failing in the database.
 */
export const textSchema = (params?: { error?: string }) =>
  // eslint-disable-next-line no-control-regex -- matching the NUL character is the point
  z.string(params).regex(/^[^\u0000]*$/, 'Text must not contain NUL characters.')

export const idSchema = z.coerce.number().int().positive().max(2_147_483_647)

/** Wraps a payload schema into the `{ data }` envelope every successful answer uses. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data })

export const okSchema = envelope(z.object({ ok: z.literal(true) }))

export const INTERNAL_ERROR_MESSAGE = 'Internal server error. Please try again later.'
