import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** A random URL-safe token with 256 bits of entropy. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url')

/** Tokens that grant something (sessions, reset links, vote codes) are stored only as hashes. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export const hmac = (secret: string, value: string) =>
  createHmac('sha256', secret).update(value).digest('base64url')
