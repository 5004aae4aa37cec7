import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { createLogger, maskUrl } from './log'

describe('maskUrl', () => {
  it.each([
    ['/password-reset/abc123', '/password-reset/***'],
    ['/api/v1/auth/passwordreset/validate/tok3n/', '/api/v1/auth/passwordreset/validate/***/'],
    ['/polls/4/SECRETCODE', '/polls/4/***'],
    ['/api/v1/polls/4/SECRETCODE/', '/api/v1/polls/4/***/'],
    ['/api/v1/polls/4/cast/', '/api/v1/polls/4/cast/'],
    ['/api/v1/polls/4/invite/', '/api/v1/polls/4/invite/'],
    ['/calendar/feedtoken.ics', '/calendar/***'],
    ['/unsubscribe/12/signedtoken', '/unsubscribe/12/***'],
    ['/unsubscribe/one-click/12/signedtoken', '/unsubscribe/one-click/12/***'],
    ['/home?skipSplash=true&token=x', '/home?skipSplash=***&token=***'],
    ['/api/v1/whoami/', '/api/v1/whoami/'],
    // Other spellings of the same routes, as the router would match them.
    ['/%70assword-reset/abc123', '/password-reset/***'],
    ['/api/v1/%70olls/4/SECRETCODE/', '/api/v1/polls/4/***/'],
    ['/%63alendar/feedtoken.ics', '/calendar/***'],
    ['/unsubscribe/%31%32/signedtoken', '/unsubscribe/12/***'],
    ['/podclubs/a%2Fb', '/podclubs/a%2Fb'],
  ])('%s is logged as %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked)
  })
})

describe('the request log', () => {
  it('never carries a token from the URL', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const app = Fastify({ loggerInstance: createLogger('info', stream) })
    app.get('/password-reset/:token', async () => 'ok')
    await app.inject({ method: 'GET', url: '/password-reset/very-secret-token?x=also-secret' })
    await app.close()
    const log = lines.join('')
    expect(log).toContain('/password-reset/***')
    expect(log).not.toContain('very-secret-token')
    expect(log).not.toContain('also-secret')
  })
})
