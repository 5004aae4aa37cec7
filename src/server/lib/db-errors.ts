const pgMessageOf = (pg: object) =>
  String((pg as { message?: unknown }).message ?? '').slice(0, 500)

/** The PostgreSQL error under a driver or Drizzle wrapper, if there is one. */
export function pgError(err: unknown): { code?: string; constraint?: string } | undefined {
  let current: unknown = err
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return candidate as { code?: string; constraint?: string }
    }
    current = candidate.cause
  }
  return undefined
}

/** The name of the unique constraint an insert or update ran into, if that is what failed. */
export function uniqueViolation(err: unknown): string | undefined {
  const pg = pgError(err)
  return pg?.code === '23505' ? (pg.constraint ?? 'unknown') : undefined
}

/**
 * What a user is told when a write runs into a unique index: one table for the whole app, read
 * by the error handler, so no feature parses database errors itself. An index missing here is a
 * 500 (a rule the service should have checked first, or a bug).
 */
export const uniqueFieldErrors: Record<string, { field: string; message: string }> = {
  users_username_unique: {
    field: 'username',
    message: 'A user with that username already exists.',
  },
  users_email_lower_unique: { field: 'email', message: 'A user with that email already exists.' },
}

/**
 * PostgreSQL refuses text it cannot store (a NUL byte, a broken encoding) with these codes; the
 * contract refuses them first, and this is the backstop that keeps them a 400.
 */
const BAD_TEXT_CODES = new Set(['22021', '22P05', '54000'])

export function isBadTextError(err: unknown): boolean {
  const code = pgError(err)?.code
  return code !== undefined && BAD_TEXT_CODES.has(code)
}

/**
 * Classes of PostgreSQL errors about the server itself (resources, the operator, the system,
 * internal): their messages name files and limits, never a value of the query, and they are what
 * an operator needs to read ('could not extend file ...: No space left on device').
 */
const SERVER_SIDE_CLASSES = /^(08|53|57|58|XX)/

/**
 * An error fit for the log: its type, first message line, PostgreSQL code and stack frames,
 * never the query's parameters or the values PostgreSQL quotes back (Drizzle writes the
 * parameters into its message; they can hold password hashes and tokens). PostgreSQL's own
 * message is added only for errors about the server itself, which quote no values.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: 'non-error thrown' }
  const pg = pgError(err)
  const isQueryError = err.message.startsWith('Failed query')
  const firstLine = err.message.split('\n')[0]!.slice(0, 500)
  return {
    type: err.constructor.name,
    message: isQueryError ? firstLine : err.message.split('\nparams:')[0],
    ...(pg ? { pgCode: pg.code, constraint: pg.constraint } : {}),
    ...(pg?.code && SERVER_SIDE_CLASSES.test(pg.code) ? { pgMessage: pgMessageOf(pg) } : {}),
    stack: err.stack
      ?.split('\n')
      .filter((line) => line.startsWith('    at '))
      .join('\n'),
  }
}

/**
 * PostgreSQL codes of a lost or refused connection: the server shut down or restarted (57P01-03),
 * too many connections (53300), and the whole class 08 (connection exceptions). A full disk is
 * not one of them: it lasts until someone acts, so it stays a logged 500.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300'])
const UNAVAILABLE_CLASSES = /^08[0-9A-Z]{3}$/
/** What the socket or the pool says when the database cannot be reached or the link broke. */
const CONNECTION_ERRNOS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
/** node-postgres and pg-pool say these in words only, without a code. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
]

/**
 * Whether an error means the database could not serve the statement for now rather than refusing
 * it: it could not be reached or dropped the connection (a restart, a failover, a terminated
 * backend, a pool that cannot connect in time). Such a failure passes: the pool connects again on
 * the next use.
 */
export function isUnavailableError(err: unknown): boolean {
  let current: unknown = err
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown }
    const code = typeof candidate.code === 'string' ? candidate.code : ''
    if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.test(code)) return true
    if (CONNECTION_ERRNOS.has(code)) return true
    const message = typeof candidate.message === 'string' ? candidate.message : ''
    if (CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true
    current = candidate.cause
  }
  return false
}
