import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { detailErrorSchema } from '#contract/common'
import { registrationStateResponseSchema } from '#contract/podclubs'
import { registrations } from '../../db/schema/index'
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

describe('POST /register/:podclubId/ with an Idempotency-Key', () => {
  const toggle = (agent: ReturnType<typeof createAgent>, podclubId: number, key?: string) =>
    agent.post(`/api/v1/register/${podclubId}/`, undefined, {
      headers: key === undefined ? {} : { 'idempotency-key': key },
    })
  const seatsHeld = async (podclubId: number, userId: number) => {
    const [row] = await t.db
      .select({ n: count() })
      .from(registrations)
      .where(and(eq(registrations.podclubId, podclubId), eq(registrations.userId, userId)))
    return row!.n
  }

  it('repeats the first answer to a retry with the same key instead of giving the seat back', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const { user, agent } = await loggedIn()
    const first = await toggle(agent, podclub.id, 'click-1')
    expect(first.json()).toEqual({ data: { registered: true, seats_left: 8 } })
    for (let retry = 0; retry < 2; retry++) {
      const again = await toggle(agent, podclub.id, 'click-1')
      expect(again.statusCode).toBe(200)
      expect(again.json()).toEqual(first.json())
    }
    expect(await seatsHeld(podclub.id, user.id)).toBe(1)
    // A new click is a new key: it gives the seat back.
    const cancel = await toggle(agent, podclub.id, 'click-2')
    expect(cancel.json()).toEqual({ data: { registered: false, seats_left: 9 } })
    expect(await seatsHeld(podclub.id, user.id)).toBe(0)
  })

  it('keeps a key to its member and its podclub: the same key elsewhere is a new request', async () => {
    const host = await createUser(t)
    const [p1, p2] = [await insertPodclub(t.db, host.id), await insertPodclub(t.db, host.id)]
    const a = await loggedIn()
    const b = await loggedIn()
    expect((await toggle(a.agent, p1.id, 'same-key')).json().data.registered).toBe(true)
    expect((await toggle(b.agent, p1.id, 'same-key')).json().data).toEqual({
      registered: true,
      seats_left: 7,
    })
    expect((await toggle(a.agent, p2.id, 'same-key')).json().data.registered).toBe(true)
    expect(await seatsHeld(p1.id, b.user.id)).toBe(1)
    expect(await seatsHeld(p2.id, a.user.id)).toBe(1)
  })

  it('tries a refused request afresh: nothing was written for its key', async () => {
    const host = await loggedIn()
    const podclub = await insertPodclub(t.db, host.user.id)
    for (let i = 0; i < 2; i++) {
      const res = await toggle(host.agent, podclub.id, 'host-click')
      expect(res.statusCode).toBe(409)
    }
  })

  it('answers 400 to a malformed key and changes nothing', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const { user, agent } = await loggedIn()
    for (const key of ['', 'x'.repeat(101), 'has space', 'semi;colon', 'dot.dot', 'ключ']) {
      const res = await toggle(agent, podclub.id, key)
      expect(res.statusCode, key).toBe(400)
      expect(res.json(), key).toEqual({
        'idempotency-key': [
          'Idempotency-Key must be 1 to 100 letters, digits, hyphens or underscores.',
        ],
      })
    }
    expect(await seatsHeld(podclub.id, user.id)).toBe(0)
    expect((await toggle(agent, podclub.id, 'x'.repeat(100))).statusCode).toBe(200)
  })
})
