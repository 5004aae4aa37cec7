import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { limitKeys } from '../../plugins/rate-limit'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { authLimits } from './auth.routes'
import { LOGIN_DEVICE_COOKIE, newLoginDevice } from './login-device'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ rateLimits: true })
})
afterAll(() => t.close())

type Agent = ReturnType<typeof createAgent>
type Member = Awaited<ReturnType<typeof createUser>>

const login = (agent: Agent, username: string, password: string) =>
  agent.post('/api/v1/login/', { username, password })

/** `times` wrong passwords for `username` from `agent`; each must be an ordinary refusal. */
async function failLogins(agent: Agent, username: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await login(agent, username, 'wrong-password')
    expect(res.statusCode, `attempt ${i + 1}`).toBe(400)
  }
}

/** Strangers everywhere have used up the account's ceiling. */
async function exhaustCeiling(member: Member) {
  const consume = () =>
    t.app.rateLimit.consume(authLimits.loginAccount, limitKeys.account(member.id))
  for (let i = 0; i < authLimits.loginAccount.points; i++) {
    // The member's own logins so far count too: stop where the account is over its ceiling.
    if (
      await consume().then(
        () => false,
        () => true,
      )
    )
      break
  }
  const fresh = createAgent(t.app, { ip: `10.70.${Math.floor(Math.random() * 250)}.1` })
  expect((await login(fresh, member.username, member.password)).statusCode).toBe(429)
}

/** A browser the member has logged in from, at `ip`; it now carries the device cookie. */
async function knownDevice(member: Member, ip: string) {
  const agent = createAgent(t.app, { ip })
  const res = await login(agent, member.username, member.password)
  expect(res.statusCode).toBe(200)
  const cookie = res.cookies.find((c) => c.name === LOGIN_DEVICE_COOKIE)
  expect(cookie).toMatchObject({ httpOnly: true, path: '/api/v1/login/' })
  return agent
}

describe('login limits', () => {
  it('wall one address off one account after 10 failures, whatever spelling of the account', async () => {
    const member = await createUser(t)
    const names = [
      member.username,
      member.email,
      member.email.toUpperCase(),
      ` ${member.username} `,
    ]
    const attacker = createAgent(t.app, { ip: '10.60.0.1' })
    for (let i = 0; i < authLimits.loginAccountAddress.points; i++) {
      const res = await login(attacker, names[i % names.length]!, 'wrong-password')
      expect(res.statusCode).toBe(400)
    }
    const limited = await login(attacker, member.username, member.password)
    expect(limited.statusCode).toBe(429)
    expect(limited.json().code).toBe('RATE_LIMITED')
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
  })

  it("do not let a stranger's failures from another address block the owner", async () => {
    const member = await createUser(t)
    const stranger = createAgent(t.app, { ip: '10.60.1.1' })
    await failLogins(stranger, member.username, authLimits.loginAccountAddress.points)
    expect((await login(stranger, member.username, 'wrong-password')).statusCode).toBe(429)
    // The owner, on a browser never used for this account before, from home.
    const owner = createAgent(t.app, { ip: '10.60.1.2' })
    expect((await login(owner, member.username, member.password)).statusCode).toBe(200)
  })

  it('let a known device in when the whole account is walled off, and no one else', async () => {
    const member = await createUser(t)
    const laptop = await knownDevice(member, '10.60.2.1')
    await exhaustCeiling(member)
    // From the laptop, even from another network (a café), the right password works.
    expect((await login(laptop, member.username, member.password)).statusCode).toBe(200)
    const elsewhere = createAgent(t.app, { ip: '10.60.2.99' })
    elsewhere.jar.set(LOGIN_DEVICE_COOKIE, laptop.jar.get(LOGIN_DEVICE_COOKIE)!)
    expect((await login(elsewhere, member.username, member.password)).statusCode).toBe(200)
  })

  it('still wall a known device off after 10 failures of its own', async () => {
    const member = await createUser(t)
    const laptop = await knownDevice(member, '10.60.3.1')
    await failLogins(laptop, member.username, authLimits.loginDevice.points)
    expect((await login(laptop, member.username, member.password)).statusCode).toBe(429)
  })

  it('give no pass to a forged device cookie, or to one of another account', async () => {
    const member = await createUser(t)
    const other = await createUser(t)
    const othersLaptop = await knownDevice(other, '10.60.4.1')
    await exhaustCeiling(member)

    const withCookie = (value: string) => {
      const agent = createAgent(t.app, { ip: '10.60.4.2' })
      agent.jar.set(LOGIN_DEVICE_COOKIE, { value })
      return agent
    }
    const cookies = {
      "another account's": othersLaptop.jar.get(LOGIN_DEVICE_COOKIE)!.value,
      'signed with another secret': newLoginDevice('x'.repeat(40), member.id),
      'with a made-up signature': `${member.id}.abcdefghijklmnop.${'A'.repeat(43)}`,
      'with the account id swapped in': othersLaptop.jar
        .get(LOGIN_DEVICE_COOKIE)!
        .value.replace(/^\d+/, String(member.id)),
    }
    for (const [what, value] of Object.entries(cookies)) {
      const res = await login(withCookie(value), member.username, member.password)
      expect(res.statusCode, what).toBe(429)
    }
  })
})
