import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { inject } from 'vitest'
import type { PGlite } from '@electric-sql/pglite'
import { type Database, onPglite, openMemoryPglite, openPostgres } from '../db/client'

export const TEMPLATE_DIR = fileURLToPath(new URL('../../../.tmp', import.meta.url))

export function postgresUrlFor(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

let templateBlob: Blob | undefined

/**
 * A migrated database for one test file, as the run's template left it: a PGlite loaded from
 * the template or given out again emptied (`leasePglite`), or (TEST_ENGINE=postgres) a
 * PostgreSQL database created from the template database.
 */
export type TestDatabase = Database & {
  /**
   * Another handle on the same database, as a second app process would have: its own pool on
   * PostgreSQL; on PGlite (one process by design) the same handle.
   */
  connectAgain(): Promise<Database>
  /** The PostgreSQL database's URL, for a server process to open it too (PGlite: none). */
  url?: string
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (process.env.TEST_ENGINE === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL!
    const name = `podclub_test_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${name} template ${inject('postgresTemplateDb')}`)
    await admin.end()
    const url = postgresUrlFor(adminUrl, name)
    const database = await openPostgres(url, { max: 5 })
    return {
      ...database,
      url,
      connectAgain: () => openPostgres(url, { max: 5 }),
      close: async () => {
        await database.close()
        const drop = new pg.Client({ connectionString: adminUrl })
        await drop.connect()
        await drop.query(`drop database if exists ${name} with (force)`)
        await drop.end()
      },
    }
  }
  const database = await leasePglite()
  return { ...database, connectAgain: async () => ({ ...database, close: async () => {} }) }
}

/**
 * The PGlite databases this worker has opened and its test files have closed, ready to be
 * given out again. Opening one costs 0.4 to 0.7 s of CPU (a WebAssembly instance loading a
 * 42 MB database), once or more per file; emptying one costs a few milliseconds. A database is
 * given out again exactly as the template left it: every table emptied and refilled with the
 * template's rows and every sequence set back, with triggers off meanwhile, through a handle of
 * its own (nothing cached carries over) whose NOTIFY listeners went with the file that closed
 * it. No test changes the schema. One that cannot be emptied is closed and replaced.
 */
const idle: PGlite[] = []
const KEEP_IDLE = 2
let templateData: Promise<string> | undefined

async function leasePglite(): Promise<Database> {
  let client = idle.pop()
  if (client) {
    try {
      await client.exec(await templateData!)
    } catch {
      await client.close().catch(() => {})
      client = undefined
    }
  }
  if (!client) {
    templateBlob ??= new Blob([await readFile(inject('pgliteTemplateFile'))])
    client = (await openMemoryPglite(templateBlob)).client
    templateData ??= restoreScript(client)
    await templateData
  }
  const database = onPglite(client)
  const listening = new Set<() => Promise<void>>()
  let closed = false
  return {
    ...database,
    listen: async (channel, handlers) => {
      const stop = await database.listen(channel, handlers)
      const once = async () => {
        if (listening.delete(once)) await stop()
      }
      listening.add(once)
      return once
    },
    close: async () => {
      if (closed) return
      closed = true
      for (const stop of [...listening]) await stop().catch(() => {})
      if (idle.length < KEEP_IDLE && !client.closed) idle.push(client)
      else await client.close()
    },
  }
}

/** SQL that puts a database opened from the template back as it was: its rows, its sequences. */
async function restoreScript(client: PGlite): Promise<string> {
  const tables = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
     where schemaname = 'public' order by 1`,
  )
  const lines = ['reset all;', 'set session_replication_role = replica;']
  lines.push(`truncate ${tables.rows.map((t) => t.name).join(', ')} restart identity cascade;`)
  for (const { name } of tables.rows) {
    const { rows } = await client.query<{ data: unknown[] | null }>(
      `select json_agg(t) as data from ${name} t`,
    )
    const data = rows[0]?.data
    if (data?.length)
      lines.push(
        `insert into ${name} select * from json_populate_recordset(null::${name}, ${literal(JSON.stringify(data))});`,
      )
  }
  const sequences = await client.query<{ name: string; value: string | null }>(
    `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
     from pg_sequences where schemaname = 'public' order by 1`,
  )
  for (const { name, value } of sequences.rows)
    lines.push(
      value === null
        ? `alter sequence ${name} restart;`
        : `select setval(${literal(name)}, ${Number(value)});`,
    )
  lines.push('set session_replication_role = origin;')
  return lines.join('\n')
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`

/**
 * A new DATA_DIR holding the run's migrated PGlite database, as a server leaves its folder after
 * its first start: for a process test whose subject is not that first start, which costs seconds
 * of CPU (PGlite creates its cluster, then every migration runs). On PGlite's runs only.
 */
export async function migratedDataDir(prefix = 'podclub-data-'): Promise<string> {
  const template = inject('pgliteTemplateFolder')
  if (!template) throw new Error('migratedDataDir() needs the PGlite run (no folder template here)')
  const dir = await mkdtemp(path.join(tmpdir(), prefix))
  await cp(template, dir, { recursive: true })
  return dir
}
