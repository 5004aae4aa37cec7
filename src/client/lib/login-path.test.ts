import { describe, expect, it } from 'vitest'
import { loginPath, safeNextPath } from './login-path'

describe('the way back after login', () => {
  it.each(['/podclubs/7', '/home?skipSplash=true', '/polls/3#results', '/'])(
    'keeps a path of this site: %s',
    (path) => expect(safeNextPath(path)).toBe(path),
  )

  it.each([
    null,
    '',
    'podclubs/7',
    'https://evil.example/podclubs/7',
    '//evil.example/podclubs/7',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
  ])('refuses anything that could leave the site: %j', (next) =>
    expect(safeNextPath(next)).toBeNull(),
  )

  it('builds /login?next=… and plain /login when there is nowhere safe to come back to', () => {
    expect(loginPath('/podclubs/7?x=1')).toBe('/login?next=%2Fpodclubs%2F7%3Fx%3D1')
    expect(loginPath('//evil.example')).toBe('/login')
    expect(loginPath()).toBe('/login')
  })
})
