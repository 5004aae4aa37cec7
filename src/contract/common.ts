import { z } from 'zod'

/** Every error code the server may send in `{ detail, code }`. */
export const errorCodes = [
  'BAD_REQUEST',
  'NOT_AUTHENTICATED',
  'FORBIDDEN',
  'CSRF_FAILED',
  'NOT_FOUND',
  'INVALID_CREDENTIALS',
  'INVALID_INVITE_CODE',
  'INVITE_CODE_USED',
  'USERNAME_TAKEN',
  'EMAIL_TAKEN',
  'NO_SEATS_LEFT',
  'HINDSIGHT_LIMIT',
  'VOTE_CODE_USED',
  'CONFLICT',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const
export const errorCodeSchema = z.enum(errorCodes)
export type ErrorCode = z.infer<typeof errorCodeSchema>

/** `{ detail }` for a single message. */
export const detailErrorSchema = z.object({ detail: z.string(), code: errorCodeSchema.optional() })
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
