import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { serverCommand } from '../testing/server-process'
import { envSchema, EnvError, parseEnv } from './env'

const root = fileURLToPath(new URL('../../../', import.meta.url))

describe('settings', () => {
  it('gives the documented defaults', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      APP_URL: 'http://localhost:3000',
      DATA_DIR: './data',
      ADMIN_USERNAME: 'admin',
      ZOOM_LINK: '',
    })
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.SMTP_URL).toBeUndefined()
    // No default club code anyone could read: the first start makes a random one.
    expect(env.CLUB_INVITE_CODE).toBeUndefined()
    expect(env.TRUST_PROXY).toBe(false)
  })

  it('takes the trailing slashes off APP_URL, once, so links built on it have one slash', () => {
    expect(parseEnv({ APP_URL: 'https://club.example/' }).APP_URL).toBe('https://club.example')
    expect(parseEnv({ APP_URL: 'https://club.example/club//' }).APP_URL).toBe(
      'https://club.example/club',
    )
    expect(parseEnv({ APP_URL: ' https://club.example ' }).APP_URL).toBe('https://club.example')
  })

  it('makes the default APP_URL follow PORT and HOST, so printed links open this server', () => {
    expect(parseEnv({ PORT: '3100' }).APP_URL).toBe('http://localhost:3100')
    expect(parseEnv({ PORT: '3100', HOST: '127.0.0.1' }).APP_URL).toBe('http://127.0.0.1:3100')
    expect(parseEnv({ PORT: '3100', HOST: '::1' }).APP_URL).toBe('http://[::1]:3100')
    expect(parseEnv({ PORT: '3100', HOST: '::' }).APP_URL).toBe('http://localhost:3100')
    expect(parseEnv({ PORT: '3100', APP_URL: '' }).APP_URL).toBe('http://localhost:3100')
    expect(parseEnv({ PORT: '3100', APP_URL: 'https://club.example' }).APP_URL).toBe(
      'https://club.example',
    )
  })

  it('treats empty values as unset', () => {
    const env = parseEnv({ DATABASE_URL: '', SMTP_URL: '', ADMIN_PASSWORD: '', SESSION_SECRET: '' })
    expect(env.DATABASE_URL).toBeUndefined()
    expect(env.ADMIN_PASSWORD).toBeUndefined()
    expect(env.SESSION_SECRET).toBeUndefined()
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_URL', 'localhost:3000'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['SMTP_URL', 'http://mail'],
    ['CONTACT_EMAIL', 'nobody'],
    ['SESSION_SECRET', 'short'],
    ['ADMIN_USERNAME', 'Admin'],
    ['ADMIN_PASSWORD', 'short'],
    ['CLUB_INVITE_CODE', 'has space'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '*'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'proxy.internal'],
    ['LIVE_STREAMS_MAX', '0'],
    ['LIVE_STREAMS_MAX', 'many'],
    ['LIVE_STREAMS_MAX', '1.5'],
  ])('refuses %s=%s with a message naming it', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError)
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`))
  })

  const METRICS_TOKEN = 'metrics-token-0123456789'
  it.each([
    ['0', false],
    ['1', 1],
    ['10.0.0.0/8, 192.0.2.1', ['10.0.0.0/8', '192.0.2.1']],
    ['2001:db8::/32', ['2001:db8::/32']],
  ])('reads TRUST_PROXY=%s as a hop count or a list of proxies', (value, parsed) => {
    expect(parseEnv({ TRUST_PROXY: value, METRICS_TOKEN }).TRUST_PROXY).toEqual(parsed)
  })

  it('refuses TRUST_PROXY without METRICS_TOKEN: behind a proxy, loopback is anyone', () => {
    expect(() => parseEnv({ TRUST_PROXY: '1' })).toThrow(/METRICS_TOKEN: must be set/)
    expect(() => parseEnv({ TRUST_PROXY: '10.0.0.0/8' })).toThrow(EnvError)
    expect(parseEnv({ TRUST_PROXY: '0' }).METRICS_TOKEN).toBeUndefined()
  })

  it('stops the server at start on a bad setting', () => {
    const run = spawnSync(process.execPath, serverCommand, {
      cwd: root,
      env: { ...process.env, PORT: 'not-a-port', SMTP_URL: 'ftp://mail' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('Invalid settings')
    expect(run.stderr).toMatch(/PORT: /)
    expect(run.stderr).toMatch(/SMTP_URL: must be a URL such as smtp:\/\//)
  }, 40_000)
})

describe('.env.example', () => {
  /** Its `NAME=value` lines, in order. */
  const lines = readFileSync(`${root}.env.example`, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => {
      const at = line.indexOf('=')
      return [line.slice(0, at), line.slice(at + 1)] as const
    })

  it('lists every setting the server reads, once, and nothing else', () => {
    const listed = lines.map(([name]) => name)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual(Object.keys(envSchema.shape).sort())
  })

  it('shows each default the server really uses', () => {
    const defaults = parseEnv({})
    for (const [name, value] of lines) {
      const parsed = parseEnv({ [name]: value })[name as keyof typeof defaults]
      expect(parsed, name).toEqual(defaults[name as keyof typeof defaults])
    }
  })
})
