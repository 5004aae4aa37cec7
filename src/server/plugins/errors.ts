import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod'
import { INTERNAL_ERROR_MESSAGE } from '#contract/common'
import { AppError, FieldErrors } from '../lib/app-error'
import {
  isBadTextError,
  isUnavailableError,
  loggableError,
  uniqueFieldErrors,
  uniqueViolation,
} from '../lib/db-errors'

/** Seconds a client should wait before trying again when the database was out of reach. */
export const UNAVAILABLE_RETRY_AFTER_S = 5
export const UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a few seconds.'

/** Field name of a validation issue: its first path segment, or non_field_errors. */
function fieldOf(instancePath: string): string {
  const first = instancePath.split('/').filter(Boolean)[0]
  return first ?? 'non_field_errors'
}

/**
 * Turns every error into the shapes of CONTRACT.md: `{ detail, code }` for one message,
 * `{ field: [messages] }` for invalid input, a 503 with Retry-After when the database could not
 * be reached, and a generic 500 that never leaks internals.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ detail: error.message, code: error.code })
    }
    if (error instanceof FieldErrors) return reply.status(400).send(error.fields)
    if (hasZodFastifySchemaValidationErrors(error)) {
      const body: Record<string, string[]> = {}
      for (const issue of error.validation) {
        const field =
          issue.instancePath === '' || issue.instancePath === '/'
            ? 'non_field_errors'
            : fieldOf(issue.instancePath)
        // An object body that is missing entirely reads as one message, not a zod internals dump.
        const message =
          field === 'non_field_errors' && issue.keyword === 'invalid_type'
            ? 'Invalid request body.'
            : (issue.message ?? 'Invalid value.')
        ;(body[field] ??= []).push(message)
      }
      return reply.status(400).send(body)
    }
    const statusCode = (error as FastifyError).statusCode
    if (
      !isResponseSerializationError(error) &&
      statusCode &&
      statusCode >= 400 &&
      statusCode < 500
    ) {
      // Fastify's own client errors (malformed JSON, body too large, bad content type).
      const detail =
        statusCode === 413
          ? 'Request body is too large.'
          : statusCode === 415
            ? 'Unsupported content type. Send JSON.'
            : (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
                error instanceof SyntaxError
              ? 'Malformed JSON in request body.'
              : statusCode === 404
                ? 'Resource not found'
                : 'Bad request.'
      return reply
        .status(statusCode)
        .send({ detail, code: statusCode === 404 ? 'NOT_FOUND' : 'BAD_REQUEST' })
    }
    const constraint = uniqueViolation(error)
    const known = constraint ? uniqueFieldErrors[constraint] : undefined
    if (known) return reply.status(400).send({ [known.field]: [known.message] })
    if (isBadTextError(error)) {
      return reply
        .status(400)
        .send({ detail: 'The request contains text that cannot be stored.', code: 'BAD_REQUEST' })
    }
    if (isUnavailableError(error)) {
      // The database is restarting or out of reach: the request is lost, not the process, and
      // the pool connects again on its own. Only what was in flight is answered this way.
      request.log.warn({ err: loggableError(error) }, 'database unavailable')
      return reply
        .status(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
        .send({ detail: UNAVAILABLE_MESSAGE, code: 'SERVICE_UNAVAILABLE' })
    }
    request.log.error({ err: loggableError(error) }, 'unhandled error')
    return reply.status(500).send({ detail: INTERNAL_ERROR_MESSAGE, code: 'INTERNAL' })
  })
})
