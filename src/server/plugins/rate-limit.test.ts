import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineEndpoint } from '#contract/endpoint'
import { buildApp } from '../app'
import { parseEnv } from '../lib/env'
import { route } from '../lib/route'
import { authLimits } from '../features/auth/auth.routes'
import { buildTestApp, createAgent, createUser, TEST_ENV, type TestApp } from '../testing/test-app'
import { limitKeys, networkOf } from './rate-limit'

const ipEndpoint = defineEndpoint({ method: 'GET', path: '/test/ip/', access: 'public' })

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ rateLimits: true })
})
afterAll(() => t.close())

const wrongLogin = (ip: string, username: string, headers: Record<string, string> = {}) =>
  createAgent(t.app, { ip }).post(
    '/api/v1/login/',
    { username, password: 'wrong-password' },
    { headers },
  )

describe('login limits', () => {
  it('count every address of one IPv6 /64 together', async () => {
    const ips = Array.from({ length: 4 }, (_, i) => `2001:db8:1:2:${i + 1}::${i + 7}`)
    for (let i = 0; i < authLimits.loginAddress.points; i++) {
      const res = await wrongLogin(ips[i % ips.length]!, `nobody.${i}`)
      expect(res.statusCode).toBe(400)
    }
    expect((await wrongLogin('2001:db8:1:2:ffff::1', 'someone.else')).statusCode).toBe(429)
    expect((await wrongLogin('2001:db8:1:3::1', 'someone.else')).statusCode).toBe(400)
  })
})

describe('networkOf', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0000:0042:abcd::1', '2001:db8:0:42::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (ip, network) => {
    expect(networkOf(ip)).toBe(network)
  })
})

describe('TRUST_PROXY', () => {
  const METRICS_TOKEN = 'metrics-token-0123456789'
  it('with a hop count, a client cannot pick its own address through X-Forwarded-For', async () => {
    const proxied = await buildTestApp({
      rateLimits: true,
      env: { TRUST_PROXY: '1', METRICS_TOKEN },
    })
    try {
      const attempt = (forwardedFor: string) =>
        createAgent(proxied.app, { ip: '127.0.0.1' }).post(
          '/api/v1/login/',
          { username: `x.${Math.random()}`, password: 'wrong-password' },
          { headers: { 'x-forwarded-for': forwardedFor } },
        )
      // The proxy appends the address it saw; whatever the client wrote before it is ignored.
      for (let i = 0; i < authLimits.loginAddress.points; i++) {
        expect((await attempt(`198.51.100.${i % 250}, 203.0.113.7`)).statusCode).toBe(400)
      }
      expect((await attempt('198.51.100.251, 203.0.113.7')).statusCode).toBe(429)
      // Another real client behind the same proxy keeps its own budget.
      expect((await attempt('203.0.113.8')).statusCode).toBe(400)
    } finally {
      await proxied.close()
    }
  })

  it("with the proxies' addresses, believes X-Forwarded-For only as far as them", async () => {
    const clientIp = async (setting: string, remoteAddress: string, forwardedFor: string) => {
      const app = await buildApp(
        { ...t.deps, env: parseEnv({ ...TEST_ENV, TRUST_PROXY: setting, METRICS_TOKEN }) },
        {
          extraApiRoutes: async (api) => {
            route(api.withTypeProvider<ZodTypeProvider>(), ipEndpoint, async (request) => ({
              ip: request.ip,
              key: limitKeys.address(request),
            }))
          },
        },
      )
      try {
        const res = await app.inject({
          method: 'GET',
          url: '/api/v1/test/ip/',
          remoteAddress,
          headers: { 'x-forwarded-for': forwardedFor },
        })
        return res.json<{ ip: string; key: string }>()
      } finally {
        await app.close()
      }
    }
    const proxies = '10.0.0.0/8, 192.0.2.1'
    // Through both proxies: the address the outer one saw, whatever the client wrote first.
    expect(await clientIp(proxies, '10.1.2.3', 'chosen.by.client, 203.0.113.7, 192.0.2.1')).toEqual(
      { ip: '203.0.113.7', key: 'ip:203.0.113.7' },
    )
    // Not from a proxy: the header is the client's own word, and ignored.
    expect(await clientIp(proxies, '198.51.100.4', '203.0.113.7')).toEqual({
      ip: '198.51.100.4',
      key: 'ip:198.51.100.4',
    })
    // Two hops: the address the second proxy from us saw; an IPv6 client counts per /64.
    expect(await clientIp('2', '127.0.0.1', 'chosen.by.client, 2001:db8:5:6::9, 10.0.0.1')).toEqual(
      { ip: '2001:db8:5:6::9', key: 'ip:2001:db8:5:6::/64' },
    )
  })

  it('is refused at start when set to trust everyone', async () => {
    await expect(buildTestApp({ env: { TRUST_PROXY: 'true' } })).rejects.toThrow(/TRUST_PROXY/)
  })
})

describe('with Redis unreachable', () => {
  it('counts in the database instead of failing every login, and stays ready', async () => {
    const redis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    })
    redis.on('error', () => {})
    const withRedis = await buildTestApp({ rateLimits: true, redis })
    try {
      const user = await createUser(withRedis)
      const ok = await createAgent(withRedis.app, { ip: '10.30.0.1' }).login(
        user.username,
        user.password,
      )
      expect(ok.statusCode).toBe(200)
      const attacker = createAgent(withRedis.app, { ip: '10.30.0.2' })
      for (let i = 0; i < authLimits.loginAccountAddress.points; i++) {
        const res = await attacker.post('/api/v1/login/', {
          username: user.username,
          password: 'wrong-password',
        })
        expect(res.statusCode).toBe(400)
      }
      const limited = await attacker.post('/api/v1/login/', {
        username: user.username,
        password: user.password,
      })
      expect(limited.statusCode).toBe(429)
      const ready = await withRedis.app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toEqual({ status: 'degraded', degraded: ['redis'] })
    } finally {
      await withRedis.close()
      redis.disconnect()
    }
  })
})
