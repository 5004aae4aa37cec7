import { z } from 'zod'

import { errorCodes } from './errors'

export { errorCodes, errorStatuses, INTERNAL_ERROR_MESSAGE, type ErrorCode } from './errors'

export const errorCodeSchema = z.enum(errorCodes)

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
