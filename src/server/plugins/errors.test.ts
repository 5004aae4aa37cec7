import { Writable } from 'node:stream'
import { sql } from 'drizzle-orm'
import Fastify from 'fastify'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../db/schema/index'
import { createTestDatabase, type TestDatabase } from '../testing/test-db'
import { type ErrorCode, errorStatuses } from '#contract/common'
import { AppError } from '../lib/app-error'
import { errorsPlugin } from './errors'
import { requestIdPlugin, requestIdServerOptions } from './request-id'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.close())

/** An app whose routes run real queries, logging into `lines`. */
async function appLoggingTo(lines: string[]) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const app = Fastify({
    loggerInstance: pino({ level: 'info' }, stream),
    ...requestIdServerOptions,
  })
  await app.register(requestIdPlugin)
  await app.register(errorsPlugin)
  const { db } = database
  app.get('/query-fails/', async () => {
    await db.execute(sql`select ${'$argon2id$v=19$m=19456,t=2,p=1$secret-hash'}::int`)
  })
  app.get('/nul/', async () => {
    await db
      .insert(users)
      .values({ username: 'nul.user', email: 'a\u0000b@x.test', passwordHash: 'x' })
  })
  app.get('/taken/', async () => {
    const row = { username: 'taken.name', email: `${Math.random()}@x.test`, passwordHash: 'x' }
    await db.insert(users).values(row).onConflictDoNothing()
    await db.insert(users).values({ ...row, email: `${Math.random()}@x.test` })
  })
  await app.ready()
  return app
}

describe('the error handler', () => {
  it('logs a failed query without its parameters and answers a generic 500', async () => {
    const lines: string[] = []
    const app = await appLoggingTo(lines)
    const res = await app.inject({ method: 'GET', url: '/query-fails/?token=secret-token' })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({
      detail: 'Internal server error. Please try again later.',
      code: 'INTERNAL',
      request_id: res.headers['x-request-id'],
    })
    const log = lines.join('')
    // The reference a member quotes finds the log line of what went wrong.
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(logged.find((l) => l.msg === 'unhandled error')?.request_id).toBe(
      res.headers['x-request-id'],
    )
    expect(log).toContain('unhandled error')
    expect(log).toContain('22P02')
    expect(log).not.toContain('secret-hash')
    expect(log).not.toContain('params')
    await app.close()
  })

  it('answers 400, not 500, when the database refuses text (a NUL byte)', async () => {
    const app = await appLoggingTo([])
    const res = await app.inject({ method: 'GET', url: '/nul/' })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('BAD_REQUEST')
    await app.close()
  })

  it('turns a unique index of the table into its field message', async () => {
    const app = await appLoggingTo([])
    const res = await app.inject({ method: 'GET', url: '/taken/' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ username: ['A user with that username already exists.'] })
    await app.close()
  })
})

describe('refusals', () => {
  it('answer the status of their code, from the one table, whoever throws them', async () => {
    const app = Fastify({ ...requestIdServerOptions })
    await app.register(errorsPlugin)
    app.get<{ Params: { code: ErrorCode } }>('/refuse/:code', async (request) => {
      throw new AppError(request.params.code, `refused: ${request.params.code}`)
    })
    await app.ready()
    for (const [code, status] of Object.entries(errorStatuses)) {
      const res = await app.inject({ url: `/refuse/${code}` })
      expect(res.statusCode, code).toBe(status)
      expect(res.json(), code).toMatchObject({ detail: `refused: ${code}`, code })
    }
    expect(errorStatuses).toMatchObject({
      BAD_REQUEST: 400,
      NOT_AUTHENTICATED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      NO_SEATS_LEFT: 409,
      RATE_LIMITED: 429,
      INTERNAL: 500,
    })
    await app.close()
  })
})
