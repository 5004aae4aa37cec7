import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { type FastifyInstance, LogController } from 'fastify'
import fp from 'fastify-plugin'

export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * A client's (or a proxy's) own id is kept when it is 1 to 64 letters, digits, `.`, `_` or `-`:
 * enough for a UUID or a load balancer's trace id, and nothing that could forge a log line or
 * a header. Anything else is replaced with a new one.
 */
export const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The id of a request: the one it brought when well formed, else a new UUID. */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && WELL_FORMED_REQUEST_ID.test(given) ? given : randomUUID()
}

/**
 * Fastify's options for it: `genReqId` decides, the header is read there and not taken as it is
 * (`requestIdHeader: false`), and every line of the request's child logger carries it as
 * `request_id`, the name the 500 answer gives it too.
 */
export const requestIdServerOptions = {
  genReqId: requestIdOf,
  requestIdHeader: false as const,
  logController: new LogController({ requestIdLogLabel: 'request_id' }),
}

/** Every answer says which request it answers, so a complaint can be traced to its log lines. */
export const requestIdPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id)
    })
  },
  { name: 'request-id' },
)
