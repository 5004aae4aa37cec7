import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listPodclubsResponseSchema } from '#contract/podclubs'
import { openTwoApps } from '../../testing/two-apps'
import { createAgent, createUser, type TestApp, loggedInMember } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'

/**
 * Two app instances on one database, each with its own pool on PostgreSQL (on PGlite, one
 * process by design, the same handle): seats and the cached feed hold across processes.
 */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const memberOn = (app: TestApp) => loggedInMember(a, { on: app })

const feedOf = async (app: TestApp) =>
  listPodclubsResponseSchema.parse(
    (await createAgent(app.app).get('/api/v1/all_upcoming_podclubs/')).json(),
  ).data

describe('seats and the feed across app processes', () => {
  it('toggles once when a retry with the same Idempotency-Key races the first request through the other instance', async () => {
    const host = await createUser(a)
    for (let round = 0; round < 5; round++) {
      const podclub = await insertPodclub(a.db, host.id)
      const user = await createUser(a)
      const onA = createAgent(a.app)
      await onA.login(user.username, user.password)
      // The same browser (cookies) sending its retry to the other process.
      const onB = createAgent(b.app)
      for (const [name, cookie] of onA.jar) onB.jar.set(name, cookie)
      const headers = { 'idempotency-key': `race-${round}` }
      const answers = await Promise.all([
        onA.post(`/api/v1/register/${podclub.id}/`, undefined, { headers }),
        onB.post(`/api/v1/register/${podclub.id}/`, undefined, { headers }),
      ])
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200])
      expect(answers.map((r) => r.json())).toEqual([
        { data: { registered: true, seats_left: 8 } },
        { data: { registered: true, seats_left: 8 } },
      ])
      const listed = (await feedOf(b)).find((p) => p.id === podclub.id)!
      expect(listed.api_registered_usernames.reserved).toEqual([user.username])
    }
  })

  it('sells exactly 9 seats when 40 members ask at once through two instances', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const members = await Promise.all(Array.from({ length: 40 }, (_, i) => memberOn(i % 2 ? a : b)))
    const answers = await Promise.all(
      members.map(({ agent }) => agent.post(`/api/v1/register/${podclub.id}/`)),
    )
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(9)
    expect(statuses.filter((s) => s === 409)).toHaveLength(31)
    for (const app of [a, b]) {
      const listed = (await feedOf(app)).find((p) => p.id === podclub.id)
      expect(listed?.seats_left).toBe(0)
    }
  })

  it('never serves a stale feed: a seat taken through one instance shows at once on the other', async () => {
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const { user, agent } = await memberOn(a)
    // Both instances have the list cached before the change.
    expect((await feedOf(a)).find((p) => p.id === podclub.id)?.seats_left).toBe(9)
    expect((await feedOf(b)).find((p) => p.id === podclub.id)?.seats_left).toBe(9)

    for (let round = 0; round < 3; round++) {
      const res = await agent.post(`/api/v1/register/${podclub.id}/`)
      const registered = round % 2 === 0
      expect(res.json().data.registered).toBe(registered)
      const seenByB = (await feedOf(b)).find((p) => p.id === podclub.id)!
      expect(seenByB.seats_left).toBe(registered ? 8 : 9)
      expect(seenByB.api_registered_usernames.reserved.includes(user.username)).toBe(registered)
    }
  })
})
