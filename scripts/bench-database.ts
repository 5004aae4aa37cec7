import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { buildApp, type BuildAppOptions } from '../src/server/app'
import { type Database, openMemoryPglite, openPglite, openPostgres } from '../src/server/db/client'
import { systemClock } from '../src/server/lib/clock'
import { parseEnv } from '../src/server/lib/env'

/** The PostgreSQL server a benchmark makes its database on (and drops it from). */
export const BENCH_POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/**
 * A fresh, migrated database for one benchmark run: on PostgreSQL a new database of its own on
 * BENCH_DATABASE_URL's server; on PGlite one in a temporary DATA_DIR (as `npm start` would open
 * it), or in memory. `drop` removes it.
 */
export async function openBenchDatabase(
  engine: 'pglite' | 'postgres',
  opts: { inMemory?: boolean } = {},
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (engine === 'pglite') {
    if (opts.inMemory) return { database: await openMemoryPglite(), drop: async () => {} }
    const dir = mkdtempSync(path.join(tmpdir(), 'podclub-bench-'))
    return {
      database: await openPglite(dir),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const name = `podclub_bench_${randomBytes(4).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`create database ${name}`)
  const url = new URL(BENCH_POSTGRES_URL)
  url.pathname = `/${name}`
  return {
    database: await openPostgres(url.toString()),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  }
}

/**
 * The app as `npm start` builds it, on a benchmark's database, with rate limits off (a
 * measurement of speed would hit them in a second); `env` adds settings to the benchmark's own,
 * `options` what main.ts passes (the built page to serve, its render module).
 */
export async function buildBenchApp(
  database: Database,
  env: Record<string, string> = {},
  options: BuildAppOptions = {},
) {
  const settings = parseEnv({
    NODE_ENV: 'production',
    APP_URL: 'http://127.0.0.1',
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    CLUB_INVITE_CODE: 'benchclub',
    LOG_LEVEL: 'warn',
    ...env,
  })
  return buildApp(
    {
      env: settings,
      db: database.db,
      listen: database.listen,
      clock: systemClock,
      wakeOutbox: () => {},
      wakeJobs: () => {},
      sessionSecret: settings.SESSION_SECRET!,
      clubInviteCode: settings.CLUB_INVITE_CODE!,
      rateLimits: false,
    },
    options,
  )
}
