import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { detailErrorSchema } from '#contract/common'
import { registrationStateResponseSchema } from '#contract/podclubs'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

async function loggedIn(app: TestApp = t) {
  const user = await createUser(app)
  const agent = createAgent(app.app)
  await agent.login(user.username, user.password)
  return { user, agent }
}

describe('POST /register/:podclubId/', () => {
  it('sells exactly 9 seats when 40 members ask at once; the rest hear No seats left', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const members = await Promise.all(Array.from({ length: 40 }, () => loggedIn()))
    const answers = await Promise.all(
      members.map(({ agent }) => agent.post(`/api/v1/register/${podclub.id}/`)),
    )
    const ok = answers.filter((r) => r.statusCode === 200)
    const refused = answers.filter((r) => r.statusCode !== 200)
    expect(ok).toHaveLength(9)
    expect(refused).toHaveLength(31)
    for (const r of refused) {
      expect(r.statusCode).toBe(409)
      expect(detailErrorSchema.parse(r.json())).toEqual({
        detail: 'No seats left',
        code: 'NO_SEATS_LEFT',
      })
    }
    const left = ok.map((r) => registrationStateResponseSchema.parse(r.json()).data.seats_left)
    expect(left.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8])
    const feed = await createAgent(t.app).get('/api/v1/all_upcoming_podclubs/')
    const listed = feed.json().data.find((p: { id: number }) => p.id === podclub.id)
    expect(listed.seats_left).toBe(0)
    expect(listed.api_registered_usernames.reserved).toHaveLength(9)
  })

  it('toggles: a second call cancels and frees the seat for someone else', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const { agent } = await loggedIn()
    const first = await agent.post(`/api/v1/register/${podclub.id}/`)
    expect(registrationStateResponseSchema.parse(first.json()).data).toEqual({
      registered: true,
      seats_left: 8,
    })
    const second = await agent.post(`/api/v1/register/${podclub.id}/`)
    expect(registrationStateResponseSchema.parse(second.json()).data).toEqual({
      registered: false,
      seats_left: 9,
    })
  })

  it('gives the seat freed by a cancel on a full podclub to the next member', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const nine = []
    for (let i = 0; i < 9; i++) {
      const m = await loggedIn()
      expect((await m.agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(200)
      nine.push(m)
    }
    const late = await loggedIn()
    expect((await late.agent.post(`/api/v1/register/${podclub.id}/`)).statusCode).toBe(409)
    const cancel = await nine[4]!.agent.post(`/api/v1/register/${podclub.id}/`)
    expect(cancel.json().data).toEqual({ registered: false, seats_left: 1 })
    const again = await late.agent.post(`/api/v1/register/${podclub.id}/`)
    expect(again.json().data).toEqual({ registered: true, seats_left: 0 })
  })

  it('refuses the podmeister, who always has a seat', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const agent = createAgent(t.app)
    await agent.login(host.username, host.password)
    const res = await agent.post(`/api/v1/register/${podclub.id}/`)
    expect(res.statusCode).toBe(409)
    expect(res.json().detail).toMatch(/podmeister/)
  })

  it('refuses completed, cancelled and started podclubs', async () => {
    const host = await createUser(t)
    const completed = await insertPodclub(t.db, host.id, {
      status: 'completed',
      startsAt: new Date('2026-01-01T00:00:00Z'),
      completedAt: new Date('2026-01-01T02:00:00Z'),
    })
    const cancelled = await insertPodclub(t.db, host.id, { status: 'cancelled' })
    const started = await insertPodclub(t.db, host.id, {
      startsAt: new Date(Date.now() - 60_000),
    })
    const { agent } = await loggedIn()
    const answers = await Promise.all(
      [completed, cancelled, started].map((p) => agent.post(`/api/v1/register/${p.id}/`)),
    )
    expect(answers.map((r) => r.statusCode)).toEqual([409, 409, 409])
    expect(answers.map((r) => r.json().detail)).toEqual([
      'This podclub has already taken place.',
      'This podclub has been cancelled.',
      'This podclub has already started.',
    ])
  })

  it('asks a visitor to log in, and answers 404 and 400 for unknown and malformed ids', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const visitor = await createAgent(t.app).post(`/api/v1/register/${podclub.id}/`)
    expect(visitor.statusCode).toBe(401)
    const { agent } = await loggedIn()
    expect((await agent.post('/api/v1/register/999999/')).statusCode).toBe(404)
    expect((await agent.post('/api/v1/register/abc/')).statusCode).toBe(400)
    expect((await agent.post('/api/v1/register/99999999999/')).statusCode).toBe(400)
  })
})
