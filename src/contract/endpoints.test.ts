import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { accessLevels, defineEndpoint, type Endpoint } from './endpoint'
import { endpoints } from './endpoints'
import { linkPaths, pageRoutes } from './pages'
import { buildPath, pathParamNames } from './path'

const all = Object.entries(endpoints) as [string, Endpoint][]

describe('the endpoint declarations', () => {
  it('collect every call of the API, each under its own name', () => {
    expect(all.length).toBeGreaterThanOrEqual(45)
    expect(Object.keys(endpoints)).toContain('getWhoami')
    expect(Object.keys(endpoints)).toContain('unsubscribeOneClick')
  })

  it('give each method and path once', () => {
    const routes = all.map(([, e]) => `${e.method} ${e.path}`)
    expect(new Set(routes).size).toBe(routes.length)
  })

  it.each(all)('%s: declares a path the server and the page read alike', (_name, endpoint) => {
    expect(endpoint.path).toMatch(/^\/[\w/:.-]*$/)
    // API paths end with '/' as the spec writes them; the page no longer adds a missing one.
    if (!endpoint.outsideApi) expect(endpoint.path.endsWith('/')).toBe(true)
    expect(accessLevels).toContain(endpoint.access)
    if (!endpoint.outsideApi) expect(endpoint.tags?.length).toBeGreaterThan(0)
  })

  it.each(all)('%s: checks exactly the parameters its path has', (_name, endpoint) => {
    const names = pathParamNames(endpoint.path)
    if (endpoint.params) {
      expect(Object.keys((endpoint.params as z.ZodObject).shape).sort()).toEqual([...names].sort())
    }
    for (const secret of endpoint.secretParams ?? []) expect(names).toContain(secret)
  })

  it.each(all.filter(([, e]) => e.response))(
    '%s: answers JSON with a schema for success',
    (_name, endpoint) => {
      const statuses = Object.keys(endpoint.response!).map(Number)
      expect(statuses.some((s) => s >= 200 && s < 300)).toBe(true)
    },
  )

  it('refuses a secret parameter the path does not have (at compile time)', () => {
    const endpoint = defineEndpoint({
      method: 'GET',
      path: '/things/:code/',
      access: 'public',
      // @ts-expect-error: 'token' is not a parameter of the path
      secretParams: ['token'],
    })
    expect(endpoint.secretParams).toEqual(['token'])
  })
})

describe('paths', () => {
  it('fill parameters as one encoded segment each, and drop optional ones left out', () => {
    expect(buildPath('/polls/:pollId/:voteCode/', { pollId: 3, voteCode: 'a/b c' })).toBe(
      '/polls/3/a%2Fb%20c/',
    )
    expect(buildPath('/polls/:pollId?/:voteCode?', { pollId: 3 })).toBe('/polls/3')
    expect(buildPath('/polls/:pollId?/:voteCode?', { pollId: 3, voteCode: '' })).toBe('/polls/3')
    expect(buildPath('/register/:code?', {})).toBe('/register')
    expect(buildPath('/home', {}, { skipSplash: 'true' })).toBe('/home?skipSplash=true')
  })

  it('name their parameters, optional ones included', () => {
    expect(pathParamNames('/polls/:pollId?/:voteCode?')).toEqual(['pollId', 'voteCode'])
    expect(pathParamNames('/register_admin/:podclubId/:username/')).toEqual([
      'podclubId',
      'username',
    ])
  })
})

describe('the page addresses', () => {
  it('name as secrets only parameters their paths have', () => {
    for (const page of pageRoutes) {
      const names = pathParamNames(page.path)
      for (const secret of page.secretParams ?? []) expect(names).toContain(secret)
    }
  })

  it('are what the links point to', () => {
    const matches = (path: string) =>
      pageRoutes.some((page) => {
        const pattern = page.path.replace(/\/:\w+\?/g, '(?:/[^/]+)?').replace(/\/:\w+/g, '/[^/]+')
        return new RegExp(`^${pattern}$`).test(path.split('?')[0]!)
      })
    const samples = [
      linkPaths.home(),
      linkPaths.podclub(12),
      linkPaths.poll(3),
      linkPaths.poll(3, 'code'),
      linkPaths.register('club'),
      linkPaths.unsubscribe(7, 'tok'),
      linkPaths.login(),
      linkPaths.forgotPassword(),
      linkPaths.passwordReset('a.b'),
      linkPaths.confirmEmail(7, 'a.b'),
    ]
    for (const path of samples) expect(matches(path), path).toBe(true)
  })
})
