import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod'
import { type ErrorCode, errorStatuses, INTERNAL_ERROR_MESSAGE } from '#contract/common'
import { AppError, FieldErrors } from '../lib/app-error'
import {
  isBadTextError,
  isUnavailableError,
  loggableError,
  uniqueFieldErrors,
  uniqueViolation,
} from '../lib/db-errors'
import { setSecurityHeaders } from './security-headers'

/** Seconds a client should wait before trying again when the database was out of reach. */
export const UNAVAILABLE_RETRY_AFTER_S = 5
export const UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a few seconds.'

/**
 * The one way an error answer is written: `{ detail, code }` with the status of its code. A 500
 * also gives the request's id, the reference a member can quote and an operator can find in the
 * log; nothing else about what went wrong.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  detail: string,
) {
  reply.status(errorStatuses[code])
  return reply.send(
    code === 'INTERNAL' ? { detail, code, request_id: request.id } : { detail, code },
  )
}

/** Fastify's own refusals of a request (body, content type, JSON), by their status. */
function clientErrorOf(error: FastifyError): { code: ErrorCode; detail: string } {
  switch (error.statusCode) {
    case 404:
      return { code: 'NOT_FOUND', detail: 'Resource not found' }
    case 413:
      return { code: 'PAYLOAD_TOO_LARGE', detail: 'Request body is too large.' }
    case 415:
      return { code: 'UNSUPPORTED_MEDIA_TYPE', detail: 'Unsupported content type. Send JSON.' }
    default:
      return {
        code: 'BAD_REQUEST',
        detail:
          error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
            ? 'Malformed JSON in request body.'
            : 'Bad request.',
      }
  }
}

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
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
      if (error instanceof AppError) {
        return sendError(request, reply.headers(error.headers), error.code, error.message)
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
        const { code, detail } = clientErrorOf(error as FastifyError)
        return sendError(request, reply, code, detail)
      }
      const constraint = uniqueViolation(error)
      const known = constraint ? uniqueFieldErrors[constraint] : undefined
      if (known) return reply.status(400).send({ [known.field]: [known.message] })
      if (isBadTextError(error)) {
        return sendError(
          request,
          reply,
          'BAD_REQUEST',
          'The request contains text that cannot be stored.',
        )
      }
      if (isUnavailableError(error)) {
        // The database is restarting or out of reach: the request is lost, not the process, and
        // the pool connects again on its own. Only what was in flight is answered this way.
        request.log.warn({ err: loggableError(error) }, 'database unavailable')
        reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
        return sendError(request, reply, 'SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE)
      }
      request.log.error({ err: loggableError(error) }, 'unhandled error')
      return sendError(request, reply, 'INTERNAL', INTERNAL_ERROR_MESSAGE)
    })
  },
  { name: 'errors' },
)

/** Paths the API answers; everything else is the page's. */
export function isApiPath(url: string) {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')
}

const BAD_REQUEST_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Bad request</title>' +
  '<p>This address is not valid. <a href="/">Go to podclub</a></p></html>'

/**
 * The `frameworkErrors` server option: a URL Fastify cannot decode (`/api/v1/%E0%A4%A/`) is
 * refused before any route or hook runs, so this answer sets what the hooks would have: the
 * contract's error shape under /api (a small page elsewhere), the request id and the security
 * headers.
 */
export function frameworkErrorHandler(opts: { hsts: boolean }) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const isServerError = !error.statusCode || error.statusCode >= 500
    if (isServerError) request.log.error({ err: error }, 'request refused by the router')
    reply.header('cache-control', 'no-store').header('x-request-id', request.id)
    if (isApiPath(request.url) || isServerError) {
      reply.type('application/json; charset=utf-8')
      setSecurityHeaders(reply, opts)
      return isServerError
        ? sendError(request, reply, 'INTERNAL', INTERNAL_ERROR_MESSAGE)
        : sendError(request, reply, 'BAD_REQUEST', 'Bad request.')
    }
    reply.status(errorStatuses.BAD_REQUEST).type('text/html; charset=utf-8')
    setSecurityHeaders(reply, opts)
    return reply.send(BAD_REQUEST_PAGE)
  }
}
