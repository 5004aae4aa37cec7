import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import lockfile from 'proper-lockfile'
import pg from 'pg'
import * as schema from './schema/index'

export { schema }

/** One type for both engines: every query is written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
/** The transaction handle `db.transaction()` passes to its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

export type Database = {
  db: Db
  engine: 'pglite' | 'postgres'
  close: () => Promise<void>
}

export class DataDirInUseError extends Error {}

/** Arbitrary but fixed key: migrations of several processes on one PostgreSQL run one at a time. */
const MIGRATION_LOCK_KEY = 7_305_112

/** Opens a pool on a PostgreSQL server and applies pending migrations. */
export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 })
  // An idle connection the server closes (a restart, a terminated backend) is re-emitted on the
  // pool; unhandled, it would crash the process. The pool replaces the connection on next use.
  pool.on('error', (err) => {
    console.warn(`podclub: an idle database connection closed: ${err.message}`)
  })
  const db = drizzleNodePg(pool, { schema }) as unknown as Db
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder })
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
    client.release()
  }
  return { db, engine: 'postgres', close: () => pool.end() }
}

/**
 * Opens PGlite in `dataDir` for this process alone. PGlite has no lock between processes, so a
 * second process on the same folder would silently lose writes: we hold a lock file and refuse.
 */
export async function openPglite(dataDir: string): Promise<Database> {
  const dir = path.resolve(dataDir)
  mkdirSync(dir, { recursive: true })
  let release: () => Promise<void>
  try {
    release = await lockfile.lock(dir, {
      lockfilePath: path.join(dir, '.podclub.lock'),
      stale: 15_000,
      update: 5_000,
      onCompromised: (err) => {
        // Another process took the folder over: stop before writes get lost.
        console.error(`podclub: lost the lock on DATA_DIR ${dir}: ${err.message}`)
        process.exit(1)
      },
    })
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') {
      throw new DataDirInUseError(
        `DATA_DIR ${dir} is in use by another podclub process. PGlite serves one process at a ` +
          'time: stop the other one, or set DATABASE_URL to share a PostgreSQL server.',
      )
    }
    throw err
  }
  try {
    const client = await PGlite.create(path.join(dir, 'pgdata'))
    const db = drizzlePglite(client, { schema }) as unknown as Db
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder })
    return {
      db,
      engine: 'pglite',
      close: async () => {
        await client.close()
        await release()
      },
    }
  } catch (err) {
    await release()
    throw err
  }
}

/** PGlite in memory, optionally from a dumped data folder (tests clone a migrated template). */
export async function openMemoryPglite(loadDataDir?: Blob): Promise<Database & { client: PGlite }> {
  const client = await PGlite.create(loadDataDir ? { loadDataDir } : {})
  const db = drizzlePglite(client, { schema }) as unknown as Db
  if (!loadDataDir) await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder })
  return { db, client, engine: 'pglite', close: () => client.close() }
}

export async function openDatabase(opts: {
  databaseUrl?: string
  dataDir: string
}): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir)
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`)
}
