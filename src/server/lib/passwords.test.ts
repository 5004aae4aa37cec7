import { describe, expect, it } from 'vitest'
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords'

/** argon2id, version 19, OWASP's second profile: 19 MiB, 2 passes, 1 lane. */
const APP_COST = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/

describe('passwords', () => {
  it('hashes with argon2id at the real cost, salted, and verifies only the right password', async () => {
    const [first, second] = [
      await hashPassword('correct horse'),
      await hashPassword('correct horse'),
    ]
    expect(first).toMatch(APP_COST)
    expect(second).not.toBe(first)
    expect(await verifyPassword(first, 'correct horse')).toBe(true)
    expect(await verifyPassword(first, 'correct horse ')).toBe(false)
  })

  it('verifies at the cost written in the hash, so a lower one (tests) runs the same code', async () => {
    const cheap = await hashPassword('correct horse', { memoryCost: 256, timeCost: 1 })
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/)
    expect(await verifyPassword(cheap, 'correct horse')).toBe(true)
    expect(await verifyPassword(cheap, 'wrong horse')).toBe(false)
  })

  it('compares an unknown user against a hash of the real cost', async () => {
    expect(await dummyPasswordHash()).toMatch(APP_COST)
  })

  it('says no, without throwing, to a stored value that is not a hash', async () => {
    expect(await verifyPassword('', 'anything')).toBe(false)
    expect(await verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$broken', 'anything')).toBe(false)
  })
})
