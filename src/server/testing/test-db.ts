import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, openMemoryPglite, openPostgres } from '../db/client'

export const TEMPLATE_DIR = fileURLToPath(new URL('../../../.tmp', import.meta.url))

export function postgresUrlFor(url: string, database: string): string {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

let templateBlob: Blob | undefined

/**
 * A fresh, migrated database for one test file: a PGlite cloned from the run's template, or
 * (TEST_ENGINE=postgres) a PostgreSQL database created from the template database.
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
  templateBlob ??= new Blob([await readFile(inject('pgliteTemplateFile'))])
  const database = await openMemoryPglite(templateBlob)
  return { ...database, connectAgain: async () => ({ ...database, close: async () => {} }) }
}

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
