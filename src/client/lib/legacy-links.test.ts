import { describe, expect, it } from 'vitest'
import { legacySignupPath } from './legacy-links'

describe('legacySignupPath', () => {
  it.each([
    ['#/signup/WELCOME42', '/register/WELCOME42'],
    ['#/signup/abc-123/', '/register/abc-123'],
  ])('rewrites %s to %s', (hash, path) => {
    expect(legacySignupPath(hash)).toBe(path)
  })

  it.each(['', '#', '#/signup/', '#contact', '#/login', '#/signup/a/b'])('ignores %j', (hash) => {
    expect(legacySignupPath(hash)).toBeNull()
  })
})
