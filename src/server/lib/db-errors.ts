/** The PostgreSQL error under a driver or Drizzle wrapper, if there is one. */
function pgError(err: unknown): { code?: string; constraint?: string } | undefined {
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
