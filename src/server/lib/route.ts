import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { bodySchemaOf, type BodySchemaOf, type Endpoint } from '#contract/endpoint'
import type { PathParamName } from '#contract/path'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's declaration the route was registered from (`route()`). */
    endpoint?: Endpoint
  }
}

export type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>

/** The Fastify schema a declaration stands for, so the handler's request is typed from it. */
type RouteSchema<E extends Endpoint> = {
  params: E['params']
  querystring: E['query']
  headers: E['headers']
  body: BodySchemaOf<E>
  response: E['response']
}

/** An endpoint without a params schema reads its parameters itself: strings, by the path. */
type RouteGeneric<E extends Endpoint> = E['params'] extends object
  ? object
  : { Params: Record<PathParamName<E['path']>, string> }

export type EndpointHandler<E extends Endpoint> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGeneric<E>,
  ContextConfigDefault,
  RouteSchema<E>,
  ZodTypeProvider
>

export type RouteOptions = {
  /** The clock a clocked body is judged by (the app's, so tests can fix it). */
  now?: () => Date
}

/**
 * Registers the route of a contract endpoint: its method and path, its schemas (checked on the
 * way in, serialized on the way out, described in /api/docs), who may call it and which path
 * parameters the log must mask. The handler is all a feature writes.
 */
export function route<E extends Endpoint>(
  app: RouteApp,
  endpoint: E,
  handler: EndpointHandler<E>,
  options: RouteOptions = {},
) {
  const clocked = typeof endpoint.body === 'function'
  if (clocked && !options.now) {
    throw new Error(
      `Route ${endpoint.method} ${endpoint.path} judges its body by the clock: pass route(..., { now })`,
    )
  }
  const body = bodySchemaOf(endpoint, options.now ?? (() => new Date()))
  const schema: FastifySchema & { tags?: readonly string[]; summary?: string } = {}
  // Only what is declared, so the API description says nothing the declaration does not.
  if (endpoint.tags) schema.tags = endpoint.tags
  if (endpoint.summary) schema.summary = endpoint.summary
  if (endpoint.params) schema.params = endpoint.params
  if (endpoint.query) schema.querystring = endpoint.query
  if (endpoint.headers) schema.headers = endpoint.headers
  if (body) schema.body = body
  if (endpoint.response) schema.response = endpoint.response
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      access: endpoint.access,
      ...(endpoint.secretParams ? { secretParams: endpoint.secretParams } : {}),
      endpoint,
    },
    schema,
    handler: handler as RouteHandlerMethod,
  })
}
