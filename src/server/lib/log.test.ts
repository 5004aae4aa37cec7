import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { buildTestApp, type TestApp } from '../testing/test-app'
import { createLogger, MAX_LOGGED_URL_LENGTH, maskUrl } from './log'

function captureLines() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _e, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, stream }
}

describe('the access log of the app', () => {
  let t: TestApp
  let app: Awaited<ReturnType<typeof buildApp>>
  const { lines, stream } = captureLines()
  beforeAll(async () => {
    t = await buildTestApp()
    app = await buildApp(t.deps, { loggerInstance: createLogger('info', stream) })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await t.close()
  })

  /** The URL the log wrote for one request. */
  async function logged(method: 'GET' | 'POST', url: string): Promise<string> {
    lines.length = 0
    await app.inject({ method, url })
    const entry = lines
      .map((line) => JSON.parse(line) as { req?: { url: string } })
      .find((e) => e.req)
    return entry!.req!.url
  }

  it.each([
    // Page addresses, answered by the page fallback: masked from the contract's pageRoutes.
    ['GET', '/register/welcome-3hT9xQ2mVb1k', '/register/***'],
    ['GET', '/REGISTER/welcome-3hT9xQ2mVb1k/', '/REGISTER/***/'],
    ['GET', '/register', '/register'],
    ['GET', '/password-reset/abc123', '/password-reset/***'],
    ['GET', '/polls/4/SECRETCODE', '/polls/4/***'],
    ['GET', '/polls/4', '/polls/4'],
    ['GET', '/unsubscribe/12/signedtoken', '/unsubscribe/12/***'],
    ['GET', '/confirm-email/12/signed.token', '/confirm-email/12/***'],
    ['GET', '/podclubs/a%2Fb', '/podclubs/a%2Fb'],
    ['GET', '/home?skipSplash=true&token=x', '/home?skipSplash=***&token=***'],
    // Routes that declare their secret params, outside the API and in it.
    ['GET', '/calendar/feedtoken.ics', '/calendar/***'],
    ['POST', '/unsubscribe/one-click/12/signedtoken', '/unsubscribe/one-click/12/***'],
    ['GET', '/api/v1/polls/4/SECRETCODE/', '/api/v1/polls/4/***/'],
    ['POST', '/api/v1/polls/4/cast/', '/api/v1/polls/4/cast/'],
    ['POST', '/api/v1/polls/4/invite/', '/api/v1/polls/4/invite/'],
    ['GET', '/api/v1/whoami/', '/api/v1/whoami/'],
    // Other spellings of the same addresses, as the router or the page would match them.
    ['GET', '/%70assword-reset/abc123', '/password-reset/***'],
    ['GET', '/api/v1/%70olls/4/SECRETCODE/', '/api/v1/polls/4/***/'],
    ['GET', '/%63alendar/feedtoken.ics', '/calendar/***'],
    ['GET', '/unsubscribe/%31%32/signedtoken', '/unsubscribe/12/***'],
    // Addresses no route declares: only the first segment is trusted.
    ['GET', '/api/v1/auth/passwordreset/validate/tok3n/', '/api/***/***/***/***/***/'],
    ['GET', '/api/v1/confirm_email/tok3n/', '/api/***/***/***/'],
    ['GET', '/confirmemail/tok3n', '/confirmemail/***'],
  ] as const)('%s %s is logged as %s', async (method, url, masked) => {
    expect(await logged(method, url)).toBe(masked)
    // Nor does any other line about the request carry the secret.
    expect(lines.join('')).not.toMatch(/3hT9xQ2mVb1k|abc123|SECRETCODE|signed\.?token|tok3n/)
  })

  it('cuts a huge URL to 2 KB and says so', async () => {
    const url = `/home?${Array.from({ length: 600 }, (_, i) => `parameter${i}=${'x'.repeat(12)}`).join('&')}`
    expect(url.length).toBeGreaterThan(12_000)
    const line = await logged('GET', url)
    expect(line.length).toBe(MAX_LOGGED_URL_LENGTH)
    expect(line.endsWith('…[cut]')).toBe(true)
    expect(line).not.toContain('xxx')
  })
})

describe('maskUrl', () => {
  it('masks the secrets of a matched route from its declaration, whatever the spelling', () => {
    const route = {
      pattern: '/api/v1/polls/:pollId/:voteCode/',
      params: { pollId: '4', voteCode: 'SECRET' },
      secretParams: ['voteCode'],
    }
    expect(maskUrl('/api/v1/%70olls/4/SE%43RET/?a=b', route)).toBe('/api/v1/polls/4/***/?a=***')
  })

  it('writes a matched route without secrets as requested', () => {
    const route = { pattern: '/api/v1/podclubs/:podclubId/', params: { podclubId: '7' } }
    expect(maskUrl('/api/v1/podclubs/7/', route)).toBe('/api/v1/podclubs/7/')
  })
})

describe('a plain Fastify app with the logger', () => {
  it('never carries a token from the URL', async () => {
    const { lines, stream } = captureLines()
    const app = Fastify({ loggerInstance: createLogger('info', stream) })
    app.get('/password-reset/:token', async () => 'ok')
    app.get('/welcome/:code', { config: { secretParams: ['code'] } }, async () => 'ok')
    await app.inject({ method: 'GET', url: '/password-reset/very-secret-token?x=also-secret' })
    await app.inject({ method: 'GET', url: '/welcome/very-secret-code' })
    await app.close()
    const log = lines.join('')
    expect(log).toContain('/password-reset/***')
    expect(log).toContain('/welcome/***')
    expect(log).not.toContain('very-secret')
    expect(log).not.toContain('also-secret')
  })
})
