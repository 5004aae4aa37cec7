import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPublicConfigResponseSchema } from '#contract/config'
import { buildTestApp, createAgent, type TestApp } from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({
    env: { CLUB_INVITE_CODE: 'come-listen', APP_URL: 'https://pods.example/' },
  })
})
afterAll(() => t.close())

describe('GET /config/', () => {
  it('tells anyone the club code and the public URL', async () => {
    const res = await createAgent(t.app).get('/api/v1/config/')
    expect(getPublicConfigResponseSchema.parse(res.json()).data).toEqual({
      club_invite_code: 'come-listen',
      app_url: 'https://pods.example',
    })
  })
})
