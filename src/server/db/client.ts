import { existsSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres'
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { BACKUP_COMMAND, dumpPglite, pgdataOf } from './backup'
import { DataDirInUseError, type LockKind, lockDataDir } from './data-dir-lock'
import { countPgliteWrites } from './pglite-writes'
import * as schema from './schema/index'

export { schema, DataDirInUseError }

/** One type for both engines: every query is written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
/** The transaction handle `db.transaction()` passes to its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

export type Database = {
  db: Db
  engine: 'pglite' | 'postgres'
  close: () => Promise<void>
  /** The pool's connections (PostgreSQL only: PGlite is one connection inside the process). */
  poolStats?: () => PoolStats
  /** Receives what is sent with NOTIFY on a channel, in commit order (see `Listen`). */
  listen: Listen
}

/**
 * Subscribes to a NOTIFY channel: `onPayload` for each notification, `onResumed` after the
 * listening connection was lost and is back (notifications sent meanwhile are gone: the
 * listener catches up from what the database stored). Resolves to the way to stop.
 */
export type Listen = (
  channel: string,
  handlers: { onPayload: (payload: string) => void; onResumed?: () => void },
) => Promise<() => Promise<void>>

/** How long a lost listening connection waits before it tries again. */
export const LISTEN_RETRY_MS = 1_000

/**
 * LISTEN on a connection of its own (a pooled one goes back to the pool between queries), opened
 * again whenever it is lost, until stopped.
 */
function listenOnPostgres(url: string): Listen {
  return async (channel, handlers) => {
    let client: pg.Client | undefined
    let stopped = false
    let retry: NodeJS.Timeout | undefined
    const connect = async () => {
      const c = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
      })
      c.on('notification', (n) => {
        if (n.channel === channel) handlers.onPayload(n.payload ?? '')
      })
      // A lost connection ends the client: it is replaced (an unheard 'error' would end the
      // process).
      c.on('error', () => {})
      c.on('end', () => {
        if (client === c && !stopped) reconnectSoon()
      })
      await c.connect()
      try {
        await c.query(`listen ${pg.escapeIdentifier(channel)}`)
      } catch (err) {
        await c.end().catch(() => {})
        throw err
      }
      client = c
    }
    const reconnectSoon = () => {
      client = undefined
      retry = setTimeout(() => {
        connect().then(
          () => (stopped ? client?.end() : handlers.onResumed?.()),
          () => !stopped && reconnectSoon(),
        )
      }, LISTEN_RETRY_MS)
      retry.unref()
    }
    await connect()
    return async () => {
      stopped = true
      clearTimeout(retry)
      await client?.end().catch(() => {})
    }
  }
}

/**
 * PGlite delivers the notifications of its own transactions to its listeners, as their COMMIT
 * ends: before the write's caller hears of it, and before this process has counted the write
 * and learned the versions it left (`countPgliteWrites`). A listener is told once that is done,
 * so what it reads through the caches shows the write.
 */
function listenOnPglite(client: PGlite): Listen {
  return async (channel, handlers) => {
    const unsubscribe = await client.listen(channel, (payload) => {
      setImmediate(() => handlers.onPayload(payload))
    })
    return async () => {
      // Closing PGlite ends its listeners with it.
      if (!client.closed) await unsubscribe()
    }
  }
}

export type PoolStats = { total: number; idle: number; waiting: number }

/** Arbitrary but fixed key: migrations of several processes on one PostgreSQL run one at a time. */
const MIGRATION_LOCK_KEY = 7_305_112

/** How long a new connection may take before the pool gives up (a server that never answers). */
export const CONNECTION_TIMEOUT_MS = 5_000
/** The longest one statement may run: a runaway query is cut off instead of holding a connection. */
export const STATEMENT_TIMEOUT_MS = 30_000

/** Opens a pool on a PostgreSQL server and applies pending migrations. */
export async function openPostgres(
  url: string,
  opts: { max?: number; connectionTimeoutMs?: number; statementTimeoutMs?: number } = {},
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? CONNECTION_TIMEOUT_MS,
    // Sent at connection start, so it is the session's default on every pooled connection.
    statement_timeout: opts.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
  })
  // An idle connection the server closes (a restart, a terminated backend) is re-emitted on the
  // pool; unhandled, it would crash the process. The pool replaces the connection on next use.
  pool.on('error', (err) => {
    console.warn(`podclub: an idle database connection closed: ${err.message}`)
  })
  // A connection checked out of the pool has no pool listener: closed between two statements of
  // a transaction, it emits 'error' on the client itself, and an 'error' nobody listens to ends
  // the process. Nothing is lost by listening: the statement that runs into the closed connection
  // fails (a 503, see `isUnavailableError`), and the pool drops the connection when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
  const db = drizzleNodePg(pool, { schema }) as unknown as Db
  try {
    const client = await pool.connect()
    try {
      // Waiting for another process's migrations, and a long migration itself, may take longer
      // than one statement may: no limit on this connection until it goes back to the pool.
      await client.query('set statement_timeout = 0')
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
      await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder })
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
      await client.query('reset statement_timeout').catch(() => {})
      client.release()
    }
  } catch (err) {
    await pool.end().catch(() => {})
    throw err
  }
  return {
    db,
    engine: 'postgres',
    close: () => pool.end(),
    listen: listenOnPostgres(url),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  }
}

/**
 * Opens PGlite in `dataDir` for this process alone. PGlite has no lock between processes, so a
 * second process on the same folder would silently lose writes: we hold the folder's lock (see
 * `data-dir-lock.ts`) for as long as it is open, and refuse with `DataDirInUseError`.
 */
export async function openPglite(
  dataDir: string,
  opts: { lockKind?: LockKind } = {},
): Promise<Database> {
  const dir = path.resolve(dataDir)
  const lock = await lockDataDir(dir, { kind: opts.lockKind })
  try {
    const client = await PGlite.create(pgdataOf(dir), { loadDataDir: await emptyDatabaseFor(dir) })
    try {
      const db = drizzlePglite(client, { schema }) as unknown as Db
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder })
      countPgliteWrites(client)
      // `npm run admin -- backup` while this process holds the folder: it copies the database
      // between two statements and keeps serving.
      lock.answerCommands(async (command, reply) => {
        if (command !== BACKUP_COMMAND) throw new Error(`unknown command "${command}"`)
        reply(await dumpPglite(client))
      })
      return {
        db,
        engine: 'pglite',
        listen: listenOnPglite(client),
        close: async () => {
          try {
            await client.close()
          } finally {
            await lock.release()
          }
        },
      }
    } catch (err) {
      await client.close().catch(() => {})
      throw err
    }
  } catch (err) {
    await lock.release()
    throw err
  }
}

/**
 * The migrated empty database the build leaves beside the server (scripts/build.mjs), for a
 * DATA_DIR without a database yet: loading it takes about 0.9 s where creating PGlite's cluster
 * and migrating it took 3.3. Undefined for a folder that has a database, or where there is no
 * build (the sources run by `npm run dev`), which then starts the long way.
 */
async function emptyDatabaseFor(dir: string): Promise<Blob | undefined> {
  const pgdata = pgdataOf(dir)
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0) return undefined
  const file = fileURLToPath(new URL('./empty-database.tar.gz', import.meta.url))
  if (!existsSync(file)) return undefined
  return new Blob([await readFile(file)])
}

/** PGlite in memory, optionally from a dumped data folder (tests clone a migrated template). */
export async function openMemoryPglite(loadDataDir?: Blob): Promise<Database & { client: PGlite }> {
  const client = await PGlite.create(loadDataDir ? { loadDataDir } : {})
  if (!loadDataDir) await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder })
  return onPglite(client)
}

/**
 * A new handle on an open PGlite: a query builder of its own (what is cached per database keys
 * on it, so a handle given out again starts with nothing cached), its writes counted.
 */
export function onPglite(client: PGlite): Database & { client: PGlite } {
  countPgliteWrites(client)
  return {
    db: drizzlePglite(client, { schema }) as unknown as Db,
    client,
    engine: 'pglite',
    listen: listenOnPglite(client),
    close: () => client.close(),
  }
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
