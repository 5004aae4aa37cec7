import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../cli'
import { postgresUrlFor } from '../testing/test-db'
import { openPostgres } from './client'
import { waitlistEntries } from './schema/index'

const admin = (args: string[], env: Record<string, string>) =>
  runCli(args, { env: { ...process.env, ...env }, progress: () => {} })

describe('backup and restore on PostgreSQL', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!
  const made: string[] = []
  const sql = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    await client.query(query).finally(() => client.end())
  }
  const newDatabase = async (template?: string) => {
    const name = `podclub_test_${randomBytes(6).toString('hex')}`
    await sql(`create database ${name}${template ? ` template ${template}` : ''}`)
    made.push(name)
    return postgresUrlFor(adminUrl, name)
  }
  const dirs: string[] = []
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'podclub-backup-pg-'))
    dirs.push(dir)
    return dir
  }
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
    for (const name of made) await sql(`drop database if exists ${name} with (force)`)
  })

  it('backs up with pg_dump and restores with pg_restore into an empty database only', async () => {
    const source = await newDatabase(inject('postgresTemplateDb'))
    const database = await openPostgres(source, { max: 1 })
    await database.db.insert(waitlistEntries).values({ email: 'pg@example.com' })
    await database.close()

    const file = path.join(await tempDir(), 'club.dump')
    const backup = await admin(['backup', file], { DATABASE_URL: source })
    expect(backup.stderr).toBe('')
    expect(backup.code).toBe(0)

    const refused = await admin(['restore', file], { DATABASE_URL: source })
    expect(refused.stderr).toBe(
      'podclub: the database of DATABASE_URL is not empty: restore into a new, empty database\n',
    )
    const notDump = path.join(await tempDir(), 'notes.txt')
    await writeFile(notDump, 'hello')
    const target = await newDatabase()
    expect((await admin(['restore', notDump], { DATABASE_URL: target })).stderr).toBe(
      `podclub: ${notDump} is not a podclub backup (made by npm run admin -- backup on PostgreSQL)\n`,
    )

    const restored = await admin(['restore', file], { DATABASE_URL: target })
    expect(restored.stderr).toBe('')
    expect(restored.code).toBe(0)
    const back = await openPostgres(target, { max: 1 })
    try {
      expect(await back.db.select().from(waitlistEntries)).toMatchObject([
        { email: 'pg@example.com' },
      ])
    } finally {
      await back.close()
    }
  }, 120_000)
})
