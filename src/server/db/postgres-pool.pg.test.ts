import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { pgError } from '../lib/db-errors'
import { postgresUrlFor } from '../testing/test-db'
import { type Db, openPostgres } from './client'

/** The first row of a raw query (node-postgres answers a QueryResult). */
async function firstRow<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows[0]!
}

// PostgreSQL only: PGlite runs in this process and has no pool, no connection and no timeouts.
describe('PostgreSQL pool timeouts', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? ''
  const name = `podclub_test_${randomBytes(6).toString('hex')}`
  let url = ''
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl })
    await client.connect()
    try {
      await client.query(query)
    } finally {
      await client.end()
    }
  }
  beforeAll(async () => {
    await admin(`create database ${name} template ${inject('postgresTemplateDb')}`)
    url = postgresUrlFor(adminUrl, name)
  })
  afterAll(async () => {
    await admin(`drop database if exists ${name} with (force)`)
  })

  it('limits every statement to 30 s by default', async () => {
    const database = await openPostgres(url, { max: 2 })
    try {
      // Every pooled connection, not just the first one.
      const shown = await Promise.all(
        [1, 2].map(() =>
          firstRow<{ statement_timeout: string }>(database.db, sql`show statement_timeout`),
        ),
      )
      expect(shown.map((r) => r.statement_timeout)).toEqual(['30s', '30s'])
    } finally {
      await database.close()
    }
  })

  it('cuts off a statement that runs longer than the limit', async () => {
    const database = await openPostgres(url, { max: 1, statementTimeoutMs: 300 })
    try {
      const err = await database.db.execute(sql`select pg_sleep(3)`).catch((e: unknown) => e)
      expect(pgError(err)?.code).toBe('57014')
      // The connection is fine afterwards.
      const after = await firstRow<{ one: number }>(database.db, sql`select 1 as one`)
      expect(after.one).toBe(1)
    } finally {
      await database.close()
    }
  })

  it('lets migrations wait for another process longer than one statement may run', async () => {
    // Another process holds the migration lock for longer than the statement limit.
    const other = new pg.Client({ connectionString: url })
    await other.connect()
    await other.query('select pg_advisory_lock(7305112)')
    // Its answer is awaited before the client ends: ended with the answer still unread, the query
    // would fail with 'Connection terminated', unhandled.
    let unlocked: Promise<unknown> | undefined
    const release = setTimeout(() => {
      unlocked = other.query('select pg_advisory_unlock(7305112)')
    }, 1_000)
    try {
      const database = await openPostgres(url, { max: 1, statementTimeoutMs: 300 })
      // The limit is back on the connection the migration used.
      const shown = await firstRow<{ statement_timeout: string }>(
        database.db,
        sql`show statement_timeout`,
      )
      expect(shown.statement_timeout).toBe('300ms')
      await database.close()
    } finally {
      clearTimeout(release)
      await unlocked
      await other.end()
    }
  })
})
