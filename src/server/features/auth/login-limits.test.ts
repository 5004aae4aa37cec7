import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { limitKeys } from '../../plugins/rate-limit'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { authLimits, UNDER_ATTACK_TRIES } from './auth.routes'
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

/** Strangers everywhere have failed at the account as often as its ceiling allows. */
async function exhaustCeiling(member: Member) {
  for (let i = 0; i < authLimits.loginAccount.points; i++) {
    await t.app.rateLimit.count(authLimits.loginAccount, limitKeys.account(member.id))
  }
}

/** An address that has failed at the account as often as an account under attack allows. */
async function guesserAt(member: Member, ip: string) {
  const guesser = createAgent(t.app, { ip })
  await failLogins(guesser, member.username, UNDER_ATTACK_TRIES)
  return guesser
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

  it("let the owner's right password in from any new browser after strangers' failures from 12 addresses", async () => {
    const member = await createUser(t)
    // 10 wrong passwords from each of 12 addresses: past the account's ceiling, where the last
    // addresses are refused after a few.
    const answers: number[] = []
    for (let a = 1; a <= 12; a++) {
      const stranger = createAgent(t.app, { ip: `10.61.${a}.1` })
      for (let i = 0; i < authLimits.loginAccountAddress.points; i++) {
        answers.push((await login(stranger, member.username, 'wrong-password')).statusCode)
      }
    }
    expect(answers.filter((status) => status === 400)).toHaveLength(
      authLimits.loginAccount.points + 2 * UNDER_ATTACK_TRIES,
    )
    expect(answers.filter((status) => status === 429)).toHaveLength(
      120 - authLimits.loginAccount.points - 2 * UNDER_ATTACK_TRIES,
    )
    // A new browser at home, and another on a network nobody has tried from.
    for (const ip of ['10.61.100.1', '10.61.101.1']) {
      const owner = createAgent(t.app, { ip })
      const res = await login(owner, member.username, member.password)
      expect(res.statusCode, `${ip}: ${res.body}`).toBe(200)
    }
  })

  it('count only failures toward the account ceiling, once the password was checked', async () => {
    const member = await createUser(t)
    const key = limitKeys.account(member.id)
    for (let i = 0; i < 3; i++) {
      const owner = createAgent(t.app, { ip: `10.62.0.${i + 1}` })
      expect((await login(owner, member.username, member.password)).statusCode).toBe(200)
    }
    expect(await t.app.rateLimit.peek(authLimits.loginAccount, key)).toBe(0)
    await failLogins(createAgent(t.app, { ip: '10.62.1.1' }), member.username, 2)
    expect(await t.app.rateLimit.peek(authLimits.loginAccount, key)).toBe(2)
  })

  it('slow a guesser down once the account is under attack: a few tries per address, not 10', async () => {
    const member = await createUser(t)
    await exhaustCeiling(member)
    const guesser = await guesserAt(member, '10.63.0.1')
    const refused = await login(guesser, member.username, 'wrong-password')
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Even the right password waits out that address's window: the guesser learns nothing.
    expect((await login(guesser, member.username, member.password)).statusCode).toBe(429)
    // The owner from anywhere else still gets in, mistyping once first.
    const owner = createAgent(t.app, { ip: '10.63.0.2' })
    await failLogins(owner, member.username, 1)
    expect((await login(owner, member.username, member.password)).statusCode).toBe(200)
  })

  it('let a known device in from an address walled off under attack', async () => {
    const member = await createUser(t)
    const laptop = await knownDevice(member, '10.60.2.1')
    await exhaustCeiling(member)
    await guesserAt(member, '10.60.2.99')
    // From the laptop, even on the guesser's network (a café), the right password works.
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
    await guesserAt(member, '10.60.4.2')

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
