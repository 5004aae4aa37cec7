import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '#contract/endpoint'
import { route } from '../lib/route'
import { errorsPlugin } from './errors'
import { accessPlugin, outsideApiAccessPlugin } from './access'
import type { AuthUser } from './session'

/** A stand-in for the session plugin: the caller comes from a test header. */
const fakeSession = fp(
  async (app) => {
    app.decorateRequest('user', null)
    app.addHook('onRequest', async (request) => {
      const who = request.headers['x-test-user']
      request.user =
        who === 'member' || who === 'operator'
          ? ({
              id: 1,
              username: who,
              email: `${who}@x.test`,
              isSuperuser: who === 'operator',
            } satisfies AuthUser)
          : null
    })
  },
  { name: 'session' },
)

async function appWith(register: (app: ReturnType<typeof apiApp>) => void) {
  const app = apiApp()
  await app.register(errorsPlugin)
  await app.register(fakeSession)
  await app.register(accessPlugin)
  register(app)
  await app.ready()
  return app
}

const apiApp = () => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  return app
}

const bodySchema = z.object({ n: z.number() })
const callEndpoints = {
  public: defineEndpoint({ method: 'POST', path: '/public/', access: 'public', body: bodySchema }),
  member: defineEndpoint({ method: 'POST', path: '/member/', access: 'member', body: bodySchema }),
  superuser: defineEndpoint({
    method: 'POST',
    path: '/superuser/',
    access: 'superuser',
    body: bodySchema,
  }),
}

describe('route access', () => {
  it('refuses to start with a route that does not say who may call it', async () => {
    await expect(
      appWith((app) => {
        app.get('/forgotten/', async () => 'open to all by accident')
      }),
    ).rejects.toThrow(/GET \/forgotten\/ must declare who may call it/)
  })

  it('refuses to start with a route that is not registered from a contract declaration', async () => {
    await expect(
      appWith((app) => {
        app.get('/by-hand/', { config: { access: 'public' } }, async () => 'written twice')
      }),
    ).rejects.toThrow(/GET \/by-hand\/ must be declared in the contract/)
    const feed = defineEndpoint({
      method: 'GET',
      path: '/feed',
      access: 'public',
      outsideApi: true,
    })
    await expect(appWith((app) => route(app, feed, async () => 'x'))).rejects.toThrow(
      /GET \/feed must be declared in the contract/,
    )
  })

  it('answers 401 to visitors, 403 to members on operator routes, before validating input', async () => {
    const app = await appWith((app) => {
      for (const endpoint of Object.values(callEndpoints)) {
        route(app, endpoint, async (request) => ({
          caller: request.user ? request.member.username : null,
        }))
      }
    })
    const call = async (path: string, who?: string) => {
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: who ? { 'x-test-user': who } : {},
        payload: { wrong: true },
      })
      return res.statusCode
    }
    expect([await call('/public/'), await call('/public/', 'member')]).toEqual([400, 400])
    expect([await call('/member/'), await call('/member/', 'member')]).toEqual([401, 400])
    expect([
      await call('/superuser/'),
      await call('/superuser/', 'member'),
      await call('/superuser/', 'operator'),
    ]).toEqual([401, 403, 400])
    const ok = await app.inject({
      method: 'POST',
      url: '/member/',
      headers: { 'x-test-user': 'member' },
      payload: { n: 1 },
    })
    expect(ok.json()).toEqual({ caller: 'member' })
    await app.close()
  })
})

describe('routes outside the API', () => {
  async function outsideWith(
    register: (app: ReturnType<typeof Fastify>) => void,
    beside?: (app: ReturnType<typeof Fastify>) => void,
  ) {
    const app = Fastify()
    beside?.(app)
    await app.register(async (outside) => {
      await outside.register(outsideApiAccessPlugin)
      register(outside as unknown as ReturnType<typeof Fastify>)
    })
    await app.ready()
    return app
  }

  it('refuses to start with one that does not declare it is public', async () => {
    await expect(outsideWith((app) => app.get('/feed', async () => 'x'))).rejects.toThrow(
      /GET \/feed is outside the API's scope.*access: 'public'/,
    )
    await expect(
      outsideWith((app) => app.get('/feed', { config: { access: 'member' } }, async () => 'x')),
    ).rejects.toThrow(/outside the API's scope/)
  })

  it('refuses an API endpoint, which belongs inside /api/v1', async () => {
    await expect(
      outsideWith((app) => route(app as never, callEndpoints.public, async () => 'x')),
    ).rejects.toThrow(/POST \/public\/ is an API endpoint/)
  })

  it('starts when each declares access: public, and leaves routes beside its scope alone', async () => {
    const app = await outsideWith(
      (outside) => outside.get('/feed', { config: { access: 'public' } }, async () => 'ok'),
      (root) => root.get('/not-ours', async () => 'fine'),
    )
    expect((await app.inject({ method: 'GET', url: '/feed' })).body).toBe('ok')
    expect((await app.inject({ method: 'GET', url: '/not-ours' })).body).toBe('fine')
    await app.close()
  })

  it('covers every route the app itself adds outside /api/v1', async () => {
    const { buildTestApp } = await import('../testing/test-app')
    const t = await buildTestApp()
    try {
      for (const url of ['/healthz', '/readyz', '/api/openapi.json']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200)
      }
    } finally {
      await t.close()
    }
  })
})
