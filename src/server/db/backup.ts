import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { askHolder, DataDirInUseError, HolderCommandError, lockDataDir } from './data-dir-lock'

const run = promisify(execFile)
const gzipAsync = promisify(gzip)

/** A backup or restore that cannot go ahead, with a message the operator can act on. */
export class BackupError extends Error {}

/** The command the server answers on its DATA_DIR lock: a copy of its database (see `client.ts`). */
export const BACKUP_COMMAND = 'backup'

/** PGlite's data folder inside DATA_DIR. */
export const pgdataOf = (dataDir: string) => path.join(path.resolve(dataDir), 'pgdata')

/**
 * A consistent copy of an open PGlite: its data folder as a gzipped tar, taken between two
 * statements (PGlite runs one at a time). A transaction still open then is not in the copy: its
 * database starts from it as from a crash, with every committed transaction and none other.
 *
 * No statement runs while the tar is taken, so it is taken as it is and compressed afterwards,
 * off the database (zlib works on its own threads): PGlite's own gzip held every statement
 * waiting through the compression too, twice as long (docs/decisions/028). The file is the same
 * gzipped tar.
 */
export async function dumpPglite(client: PGlite): Promise<Uint8Array> {
  const tar = new Uint8Array(await (await client.dumpDataDir('none')).arrayBuffer())
  return new Uint8Array(await gzipAsync(tar))
}

/** Writes `bytes` to `file` whole or not at all, and never over an existing file. */
async function writeNew(file: string, bytes: Uint8Array) {
  if (existsSync(file)) throw new BackupError(`${file} already exists: choose a new file name`)
  const partial = `${file}.partial-${process.pid}`
  try {
    await writeFile(partial, bytes, { flag: 'wx', mode: 0o600 })
    await rename(partial, file)
  } catch (err) {
    await rm(partial, { force: true })
    throw err
  }
}

/**
 * Backs up the PGlite database in `dataDir` to `file`. While a server holds the folder, it makes
 * the copy itself and keeps serving (it answers on its lock); otherwise this process opens the
 * folder, under the same lock, and copies it.
 */
export async function backupPglite(dataDir: string, file: string): Promise<{ bytes: number }> {
  if (!existsSync(pgdataOf(dataDir))) {
    throw new BackupError(`DATA_DIR ${path.resolve(dataDir)} holds no podclub database`)
  }
  let bytes: Uint8Array
  try {
    const lock = await lockDataDir(dataDir)
    try {
      const client = await PGlite.create(pgdataOf(dataDir))
      try {
        bytes = await dumpPglite(client)
      } finally {
        await client.close()
      }
    } finally {
      await lock.release()
    }
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err
    try {
      bytes = await askHolder(dataDir, BACKUP_COMMAND)
    } catch (askErr) {
      if (askErr instanceof HolderCommandError) {
        throw new BackupError(
          `the server using DATA_DIR could not make the backup: ${askErr.message}`,
        )
      }
      throw askErr
    }
  }
  await writeNew(file, bytes)
  return { bytes: bytes.length }
}

/** How many of our migrations a database has applied: none means it is not a podclub database. */
async function appliedMigrations(query: (sql: string) => Promise<{ rows: unknown[] }>) {
  const { rows } = await query(
    "select count(*)::int as n from pg_tables where schemaname = 'drizzle' and tablename = '__drizzle_migrations'",
  )
  if ((rows[0] as { n: number }).n === 0) return 0
  const applied = await query('select count(*)::int as n from drizzle.__drizzle_migrations')
  return (applied.rows[0] as { n: number }).n
}

/**
 * Restores a PGlite backup into `dataDir`, which must be empty (or not exist yet): a restore never
 * mixes with, or replaces, a database that is there. The file is opened in memory first, so a
 * file that is not a podclub backup is refused before anything is written.
 */
export async function restorePglite(
  dataDir: string,
  file: string,
): Promise<{ migrations: number }> {
  const dir = path.resolve(dataDir)
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new BackupError(
      `DATA_DIR ${dir} is not empty: restore into an empty or new folder, then point DATA_DIR at it`,
    )
  }
  const blob = new Blob([await readFile(file).catch(() => unreadable(file))])
  const migrations = await pgliteBackupMigrations(blob, file)
  const lock = await lockDataDir(dir)
  try {
    const client = await PGlite.create(pgdataOf(dir), { loadDataDir: blob })
    await client.close()
  } catch (err) {
    await rm(pgdataOf(dir), { recursive: true, force: true })
    throw err
  } finally {
    await lock.release()
  }
  return { migrations }
}

function unreadable(file: string): never {
  throw new BackupError(`cannot read ${file}`)
}

async function pgliteBackupMigrations(blob: Blob, file: string): Promise<number> {
  const notABackup = () =>
    new BackupError(`${file} is not a podclub backup (made by npm run admin -- backup on PGlite)`)
  let probe: PGlite
  try {
    probe = await PGlite.create({ loadDataDir: blob })
  } catch {
    throw notABackup()
  }
  try {
    const migrations = await appliedMigrations((sql) => probe.query(sql))
    if (migrations === 0) throw notABackup()
    return migrations
  } catch (err) {
    if (err instanceof BackupError) throw err
    throw notABackup()
  } finally {
    await probe.close().catch(() => {})
  }
}

/** pg_dump and pg_restore from PATH, with a clear message when PostgreSQL's tools are missing. */
async function postgresTool(tool: 'pg_dump' | 'pg_restore', args: string[]) {
  try {
    return await run(tool, args, { maxBuffer: 16 * 1024 * 1024 })
  } catch (err) {
    const { code, stderr } = err as NodeJS.ErrnoException & { stderr?: string }
    if (code === 'ENOENT') {
      throw new BackupError(
        `${tool} is not installed: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), in the server's major version or newer`,
      )
    }
    throw new BackupError(`${tool} failed: ${(stderr ?? String(err)).trim().split('\n')[0]}`)
  }
}

/** A PostgreSQL backup: `pg_dump` in its custom format, which `pg_restore` reads. */
export async function backupPostgres(
  databaseUrl: string,
  file: string,
): Promise<{ bytes: number }> {
  if (existsSync(file)) throw new BackupError(`${file} already exists: choose a new file name`)
  const partial = `${file}.partial-${process.pid}`
  try {
    await postgresTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      `--file=${partial}`,
      databaseUrl,
    ])
    await rename(partial, file)
  } finally {
    await rm(partial, { force: true })
  }
  return { bytes: (await readFile(file)).length }
}

/** Restores a `pg_dump` custom-format backup into an empty PostgreSQL database. */
export async function restorePostgres(databaseUrl: string, file: string): Promise<void> {
  const head = await readFile(file)
    .then((b) => b.subarray(0, 5).toString('latin1'))
    .catch(() => unreadable(file))
  if (head !== 'PGDMP') {
    throw new BackupError(
      `${file} is not a podclub backup (made by npm run admin -- backup on PostgreSQL)`,
    )
  }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')",
    )
    if (rows[0]!.n > 0) {
      throw new BackupError(
        'the database of DATABASE_URL is not empty: restore into a new, empty database',
      )
    }
  } finally {
    await client.end()
  }
  await postgresTool('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    `--dbname=${databaseUrl}`,
    file,
  ])
}
