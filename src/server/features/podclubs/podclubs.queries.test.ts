import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podclubSchema } from '#contract/podclubs'
import { podcasts, podclubs, registrations } from '../../db/schema/index'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { readUpcomingPodclubs } from './podclubs.queries'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('readUpcomingPodclubs', () => {
  it('reads upcoming podclubs soonest first with their seats, in the contract shape', async () => {
    const host = await createUser(t)
    const [a, b] = [await createUser(t), await createUser(t)]
    const [podcast] = await t.db
      .insert(podcasts)
      .values({ name: 'Radiolab', pictureLink: 'https://example.com/r.png' })
      .returning()
    const base = { podcastId: podcast!.id, podmeisterId: host.id, episodeTitle: 'Later' }
    const [later, sooner] = await t.db
      .insert(podclubs)
      .values([
        { ...base, startsAt: new Date('2027-03-02T00:00:00Z'), location: 'nyc' },
        { ...base, episodeTitle: 'Sooner', startsAt: new Date('2027-02-01T00:00:00Z') },
        {
          ...base,
          episodeTitle: 'Done',
          startsAt: new Date('2026-01-01T00:00:00Z'),
          status: 'completed',
          completedAt: new Date('2026-01-01T02:00:00Z'),
        },
      ])
      .returning()
    await t.db.insert(registrations).values([
      { podclubId: later!.id, userId: b.id },
      { podclubId: later!.id, userId: a.id },
    ])
    const list = await readUpcomingPodclubs(t.db)
    expect(list.map((p) => p.episode_title)).toEqual(['Sooner', 'Later'])
    for (const p of list) podclubSchema.parse(p)
    expect(list[0]!.seats_left).toBe(9)
    expect(list[0]!.location).toBeNull()
    expect(list[1]).toMatchObject({
      id: later!.id,
      seats_left: 7,
      location: 'nyc',
      podmeister: { username: host.username },
      podcast: { name: 'Radiolab', picture_link: 'https://example.com/r.png' },
      api_registered_usernames: { reserved: [b.username, a.username] },
      pretty_date: 'Monday, March 1, 2027',
      pretty_time: '7:00 PM EST',
      starts_at: '2027-03-02T00:00:00.000Z',
    })
    expect(sooner!.id).toBe(list[0]!.id)
  })
})
