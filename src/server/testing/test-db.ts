import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
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
export async function createTestDatabase(): Promise<Database> {
  if (process.env.TEST_ENGINE === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL!
    const name = `podclub_test_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database ${name} template ${inject('postgresTemplateDb')}`)
    await admin.end()
    const database = await openPostgres(postgresUrlFor(adminUrl, name), { max: 5 })
    return {
      ...database,
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
  return openMemoryPglite(templateBlob)
}
