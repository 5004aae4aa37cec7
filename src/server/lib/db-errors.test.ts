import { describe, expect, it } from 'vitest'
import { isUnavailableError } from './db-errors'

/** An error as node-postgres or Node's sockets make it, optionally wrapped as Drizzle does. */
const fault = (message: string, code?: string) => Object.assign(new Error(message), { code })
const wrapped = (cause: Error) => new Error('Failed query: select 1\nparams: ', { cause })

describe('isUnavailableError', () => {
  it.each([
    ['a terminated backend', fault('terminating connection due to administrator command', '57P01')],
    ['a crash shutdown', fault('terminating connection because of crash', '57P02')],
    ['a server starting up', fault('the database system is starting up', '57P03')],
    ['too many connections', fault('sorry, too many clients already', '53300')],
    ['class 08', fault('connection failure', '08006')],
    ['a reset socket', fault('read ECONNRESET', 'ECONNRESET')],
    ['a refused connection', fault('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a closed connection', fault('Connection terminated unexpectedly')],
    ['a pool connect timeout', fault('timeout exceeded when trying to connect')],
    [
      'a client after its error',
      fault('Client has encountered a connection error and is not queryable'),
    ],
    ['a wrapped one', wrapped(fault('read ECONNRESET', 'ECONNRESET'))],
  ])('%s is one', (_what, err) => {
    expect(isUnavailableError(err)).toBe(true)
  })

  it.each([
    ['a unique violation', wrapped(fault('duplicate key', '23505'))],
    ['a bad value', fault('invalid input syntax for type integer', '22P02')],
    ['a full disk', fault('could not extend file: No space left on device', '53100')],
    ['a statement timeout', fault('canceling statement due to statement timeout', '57014')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNRESET'],
  ])('%s is not', (_what, err) => {
    expect(isUnavailableError(err)).toBe(false)
  })
})
