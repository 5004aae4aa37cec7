import { rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import {
  freePort,
  processAgent,
  startServerProcess,
  untilReady,
  type ServerProcess,
} from './testing/server-process'
import { migratedDataDir } from './testing/test-db'
import { startTestSmtp, type TestSmtp } from './testing/smtp'
import { startTcpProxy, type TcpProxy } from './testing/tcp-proxy'
import { waitUntil } from './testing/wait'

const redisTarget = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')

/**
 * The real process on PGlite with Redis and SMTP behind proxies the test stops, resets and
 * starts again. Nothing it does may end the process, and it must stay ready on its database.
 */
describe('a process whose Redis and SMTP server go away and come back', () => {
  let dataDir = ''
  let server: ServerProcess | undefined
  let smtp: TestSmtp | undefined
  const proxies: TcpProxy[] = []
  afterAll(async () => {
    if (server?.isAlive()) server.child.kill('SIGKILL')
    for (const proxy of proxies) await proxy.close()
    await smtp?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('keeps serving and stays ready on its database, with nothing uncaught', async () => {
    smtp = await startTestSmtp()
    const smtpProxy = await startTcpProxy({ port: smtp.port })
    const redisProxy = await startTcpProxy({
      host: redisTarget.hostname,
      port: Number(redisTarget.port || 6379),
    })
    proxies.push(smtpProxy, redisProxy)
    dataDir = await migratedDataDir('podclub-faults-')
    server = startServerProcess(await freePort(), {
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtpProxy.port}`,
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}${redisTarget.pathname}`,
      // Rate limits count per client address: this run's own, so that Redis keeps no count of
      // an earlier run for it.
      TRUST_PROXY: '1',
      METRICS_TOKEN: 'metrics-token-0123456789',
    })
    await untilReady(server, 'server ready')
    const from = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.1`
    const visitor = () => processAgent(server!.base, { forwardedFor: from })
    const ready = async () => {
      const res = await fetch(`${server!.base}/readyz`)
      return { status: res.status, body: (await res.json()) as { status: string } }
    }
    const untilStatus = (status: string, what: string) =>
      waitUntil(async () => (await ready()).body.status === status, 15_000, what)
    const signUp = async (username: string) => {
      const res = await visitor().post('/api/v1/signup/', {
        username,
        email: `${username}@example.com`,
        password: 'longenough',
        inviteCode: 'processcode',
        city: 'Queens',
        source: 'a friend',
      })
      expect(res.status).toBe(201)
    }
    const login = async (username: string, password = 'longenough') =>
      (await visitor().post('/api/v1/login/', { username, password })).status

    await signUp('faults.one')
    await smtp.waitFor((m) => m.to.includes('faults.one@example.com'), 10_000)

    // Redis away: ready on the database, and logins count there.
    await redisProxy.pause()
    await untilStatus('degraded', 'redis reported degraded')
    expect(await ready()).toEqual({
      status: 200,
      body: { status: 'degraded', degraded: ['redis'] },
    })
    expect(await login('faults.one', 'wrong-password')).toBe(400)
    expect(await login('faults.one')).toBe(200)

    // SMTP away too: sign-up still works, its mail waits in the outbox.
    await smtpProxy.pause()
    await signUp('faults.two')
    await new Promise((resolve) => setTimeout(resolve, 3_000))

    // Redis back, then its connections reset under logins in flight.
    await redisProxy.resume()
    await untilStatus('ok', 'redis back')
    const inFlight = Array.from({ length: 6 }, () => login('faults.one'))
    redisProxy.cut()
    expect(await Promise.all(inFlight)).toEqual([200, 200, 200, 200, 200, 200])
    await smtpProxy.resume()

    await untilStatus('ok', 'ready again')
    expect(server.isAlive()).toBe(true)
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaught|unhandled rejection/i)
  }, 90_000)
})
