import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPublicConfigResponseSchema } from '#contract/config'
import { buildTestApp, createAgent, type TestApp } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({
    env: {
      CLUB_INVITE_CODE: 'come-listen',
      APP_URL: 'https://pods.example/',
      CONTACT_EMAIL: 'questions@pods.example',
    },
  })
})
afterAll(() => t.close())

describe('GET /config/', () => {
  it('tells anyone the public URL, the club code, its invite link and the contact address', async () => {
    const res = await createAgent(t.app).get('/api/v1/config/')
    expect(getPublicConfigResponseSchema.parse(res.json()).data).toEqual({
      club_invite_code: 'come-listen',
      app_url: 'https://pods.example',
      invite_link: 'https://pods.example/register/come-listen',
      contact_email: 'questions@pods.example',
    })
  })

  it('documents the home calls in the OpenAPI description', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' })
    expect(res.statusCode).toBe(200)
    const paths = Object.keys(res.json().paths)
    for (const path of [
      '/api/v1/all_upcoming_podclubs/',
      '/api/v1/register/{podclubId}/',
      '/api/v1/splash/',
      '/api/v1/past_podclubs/random/',
      '/api/v1/suggest_podcast/',
      '/api/v1/invite/',
      '/api/v1/feedback/',
      '/api/v1/config/',
    ]) {
      expect(paths).toContain(path)
    }
  })
})
