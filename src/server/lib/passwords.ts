import { hash, verify } from '@node-rs/argon2'

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes).
const options = {
  algorithm: 2 /* Algorithm.Argon2id, a const enum */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
}

/** argon2id's cost: memory in KiB, passes. The app always uses its own; tests may ask for less. */
export type HashCost = Pick<typeof options, 'memoryCost' | 'timeCost'>

export const hashPassword = (password: string, cost?: HashCost) =>
  hash(password, { ...options, ...cost })

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

/** Verifying against this when a user is unknown keeps the response time the same. */
let dummyHash: Promise<string> | undefined
export const dummyPasswordHash = () => (dummyHash ??= hashPassword('not a real password'))
