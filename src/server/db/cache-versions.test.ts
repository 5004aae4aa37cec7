import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  cachedByVersion,
  cacheVersionsOf,
  collectVersions,
  readCacheVersions,
} from './cache-versions'
import { podclubs, registrations, sessions, users } from './schema/index'
import { transaction } from './transaction'
import { insertPodclub } from '../features/podclubs/podclubs.fixtures'
import { openTwoApps } from '../testing/two-apps'
import { type createAgent, createUser, loggedInMember, type TestApp } from '../testing/test-app'

let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

const members = async () => (await readCacheVersions(a.db, ['members'])).get('members')!

describe('the members version', () => {
  it('rises with each committed change to an account or a session, once per transaction, and not with a podclub', async () => {
    const start = await members()
    const user = await createUser(a)
    expect(await members()).toBe(start + 1)
    await a.db.update(users).set({ city: 'Queens' }).where(eq(users.id, user.id))
    expect(await members()).toBe(start + 2)

    const { agent } = await loggedInMember(a)
    const afterLogin = await members()
    // The member's row, then the session of the login and the hash of their calendar link.
    expect(afterLogin).toBe(start + 5)
    await agent.post('/api/v1/logout/')
    expect(await members()).toBe(afterLogin + 1)

    await insertPodclub(a.db, user.id)
    expect(await members()).toBe(afterLogin + 1)
    await transaction(a.deps, async (tx) => {
      await tx.update(users).set({ city: 'Hoboken' }).where(eq(users.id, user.id))
      await tx.delete(sessions).where(eq(sessions.userId, user.id))
      await tx.update(users).set({ city: 'Brooklyn' }).where(eq(users.id, user.id))
    })
    expect(await members()).toBe(afterLogin + 2)
    await expect(
      transaction(a.deps, async (tx) => {
        await tx.update(users).set({ city: 'Newark' }).where(eq(users.id, user.id))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await members()).toBe(afterLogin + 2)
  })
})

describe('a read cached by version', () => {
  it('reads once per key while its versions stand, shared by callers asking together', async () => {
    let reads = 0
    const count = cachedByVersion(
      a.db,
      { name: 'count', versions: ['podclubs'], dependsOn: {} },
      async (key: string) => {
        reads += 1
        return `${key}:${(await a.db.select().from(podclubs)).length}`
      },
    )
    const [first] = await Promise.all(Array.from({ length: 10 }, () => count('x')))
    await count('x')
    await count('y')
    expect(reads).toBe(2)

    // A change of what another version stands for leaves it be.
    await createUser(a)
    await count('x')
    expect(reads).toBe(2)

    const host = await createUser(a)
    await insertPodclub(a.db, host.id)
    const after = await count('x')
    expect(after).not.toBe(first)
    expect(reads).toBe(3)
  })

  it('keeps neither a failed read nor a read of an older version', async () => {
    let reads = 0
    const read = cachedByVersion(
      a.db,
      { name: 'keyed', versions: ['members'], dependsOn: {} },
      async (key: number) => {
        reads += 1
        if (key === 2 && reads < 3) throw new Error('the database is away')
        return key
      },
    )
    await read(1)
    await read(1)
    expect(reads).toBe(1)
    await expect(read(2)).rejects.toThrow('away')
    await expect(read(2)).resolves.toBe(2)
    expect(reads).toBe(3)
  })
})

describe('the version reader', () => {
  it('answers only the versions asked for, and notes each as consulted, whoever shares its read', async () => {
    const reader = cacheVersionsOf(a.db)
    // Three asking together: the second and third share the read queued behind the first.
    const asked = [['podclubs'], ['members'], ['seats:1', 'member_seats:1']]
    const answers = await Promise.all(
      asked.map((names) => collectVersions(async () => reader.current(names))),
    )
    answers.forEach(({ value, versions }, i) => {
      expect([...value.keys()], `answer ${i}`).toEqual(asked[i])
      expect([...versions.keys()], `noted ${i}`).toEqual(asked[i])
    })
    // Asked again once known (on PGlite, without a query): still only those.
    const again = await reader.current(['members'])
    expect([...again.keys()]).toEqual(['members'])
  })
})

describe('what other processes see at once, through their caches', () => {
  const cookieOf = (agent: ReturnType<typeof createAgent>) =>
    [...agent.jar].map(([name, c]) => `${name}=${c.value}`).join('; ')
  const whoami = (t: TestApp, cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/whoami/', headers: { cookie } })

  it('a logout, a seat and a new calendar link made through one app', async () => {
    const { user, agent } = await loggedInMember(a)
    const cookie = cookieOf(agent)
    const host = await createUser(a)
    const podclub = await insertPodclub(a.db, host.id)
    const detail = `/api/v1/podclubs/${podclub.id}/`
    const seatsLeft = async () =>
      (JSON.parse((await b.app.inject({ url: detail })).body) as { data: { seats_left: number } })
        .data.seats_left
    const calendarUrl = async () =>
      (
        JSON.parse((await b.app.inject({ url: '/api/v1/profile/', headers: { cookie } })).body) as {
          data: { calendar_url: string }
        }
      ).data.calendar_url

    // The other app has read, and keeps, each of them.
    expect((await whoami(b, cookie)).json()).toMatchObject({
      data: { isAuthenticated: true, user: { username: user.username } },
    })
    expect(await seatsLeft()).toBe(9)
    const link = await calendarUrl()
    expect(link).toMatch(/^https?:\/\//)

    await a.db.insert(registrations).values({ podclubId: podclub.id, userId: user.id })
    expect(await seatsLeft()).toBe(8)

    const reset = await agent.post('/api/v1/profile/calendar_link/')
    expect(reset.statusCode, reset.body).toBe(200)
    expect(await calendarUrl()).not.toBe(link)

    await agent.post('/api/v1/logout/')
    expect((await whoami(b, cookie)).json()).toMatchObject({ data: { isAuthenticated: false } })
  })
})
