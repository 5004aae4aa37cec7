/*
 * The API's error codes, apart from zod so the page's first load can read them without it
 * (common.ts builds their schema).
 */

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
export type ErrorCode = keyof typeof errorStatuses

export const INTERNAL_ERROR_MESSAGE = 'Internal server error. Please try again later.'
