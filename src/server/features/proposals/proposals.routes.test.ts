import { readCacheVersions } from '../../db/cache-versions'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podclubSchema } from '#contract/podclubs'
import {
  createProposalResponseSchema,
  getProposalSuggestionsResponseSchema,
  PROPOSAL_MESSAGES,
} from '#contract/proposals'
import { podcasts, podclubs } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, type TestApp, loggedInMember } from '../../testing/test-app'

// 20:00 in New York on Saturday February 7 2026 is already Sunday the 8th in UTC.
const clock = fixedClock('2026-02-08T01:00:00Z')
let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ clock })
})
afterAll(() => t.close())

const valid = {
  title: 'The Cathedral',
  podcastName: 'Radiolab',
  number: '12',
  keywordOne: 'attention',
  keywordTwo: 'habits',
  keywordThree: 'culture',
  linkOne: 'https://podcasts.apple.com/us/podcast/x',
  linkTwo: '',
  linkThree: 'https://www.youtube.com/watch?v=x',
  scheduledStart: '03/10/2026 14:00',
  description: 'A conversation about how ideas spread and why some of them stick with us.',
  podmeisterNote: 'I picked this because it changed how I listen to the people around me.',
  location: 'zoom',
}

const member = () => loggedInMember(t, { clock })

describe('POST /propose/', () => {
  it('creates an upcoming podclub with the proposer as podmeister, in Eastern time', async () => {
    const { user, agent } = await member()
    const before = (await readCacheVersions(t.db, ['podclubs'])).get('podclubs')!
    const res = await agent.post('/api/v1/propose/', valid)
    expect(res.statusCode, res.body).toBe(201)
    const { data } = createProposalResponseSchema.parse(res.json())
    expect(data).toMatchObject({
      status: 'upcoming',
      episode_title: 'The Cathedral',
      episode_number: '12',
      podmeister: { username: user.username },
      podcast: { name: 'Radiolab' },
      // March 10 is after the switch to daylight time (March 8): 14:00 EDT is 18:00 UTC.
      starts_at: '2026-03-10T18:00:00.000Z',
      pretty_time: '2:00 PM EDT',
      location: 'zoom',
      seats_left: 9,
      link_two: '',
    })
    podclubSchema.parse(data)
    expect((await readCacheVersions(t.db, ['podclubs'])).get('podclubs')).toBe(before + 1)
  })

  it('reuses a podcast named the same in another case, and creates one otherwise', async () => {
    const { agent } = await member()
    await t.db.insert(podcasts).values({ name: 'Hidden Brain' }).onConflictDoNothing()
    const res = await agent.post('/api/v1/propose/', { ...valid, podcastName: 'hidden BRAIN' })
    expect(res.json().data.podcast.name).toBe('Hidden Brain')
    const fresh = await agent.post('/api/v1/propose/', { ...valid, podcastName: 'Brand New Show' })
    expect(fresh.statusCode).toBe(201)
    const shows = await t.db
      .select()
      .from(podcasts)
      .where(sql`lower(${podcasts.name}) in ('hidden brain', 'brand new show')`)
    expect(shows).toHaveLength(2)
  })

  it('refuses dates under one month or over seven months ahead, by New York’s calendar', async () => {
    const { agent } = await member()
    const cases: [string, number, string?][] = [
      // Today in New York is February 7, so March 7 is the first day allowed...
      ['03/07/2026 00:00', 201],
      ['03/06/2026 23:30', 400, PROPOSAL_MESSAGES.tooSoon],
      // ...and September 7 the last.
      ['09/07/2026 23:30', 201],
      ['09/08/2026 00:00', 400, PROPOSAL_MESSAGES.tooLate],
      ['01/01/2020 14:00', 400, PROPOSAL_MESSAGES.tooSoon],
    ]
    for (const [scheduledStart, status, message] of cases) {
      const res = await agent.post('/api/v1/propose/', { ...valid, scheduledStart })
      expect(res.statusCode, scheduledStart).toBe(status)
      if (message) expect(res.json()).toEqual({ scheduledStart: [message] })
    }
  })

  it('handles the days clocks change: a missing hour is refused, the repeated one is EDT', async () => {
    const { user, agent } = await member()
    // Clocks spring forward at 2:00 on March 8 2026: 02:00 and 02:30 do not exist that day.
    const gap = await agent.post('/api/v1/propose/', {
      ...valid,
      scheduledStart: '03/08/2026 02:30',
    })
    expect(gap.json()).toEqual({ scheduledStart: [PROPOSAL_MESSAGES.noSuchTime] })
    const after = await agent.post('/api/v1/propose/', {
      ...valid,
      scheduledStart: '03/08/2026 03:00',
    })
    expect(after.json().data.starts_at).toBe('2026-03-08T07:00:00.000Z')
    const before = await agent.post('/api/v1/propose/', {
      ...valid,
      scheduledStart: '03/08/2026 01:30',
    })
    expect(before.json().data.starts_at).toBe('2026-03-08T06:30:00.000Z')

    // Clocks fall back on November 1 2026; one month before is October 1 (New York).
    clock.set('2026-10-02T03:30:00Z') // 23:30 on October 1 in New York
    try {
      await agent.login(user.username, user.password)
      const fallBack = await agent.post('/api/v1/propose/', {
        ...valid,
        scheduledStart: '11/01/2026 14:00',
      })
      expect(fallBack.statusCode).toBe(201)
      expect(fallBack.json().data.starts_at).toBe('2026-11-01T19:00:00.000Z')
      expect(fallBack.json().data.pretty_time).toBe('2:00 PM EST')
      const repeated = await agent.post('/api/v1/propose/', {
        ...valid,
        scheduledStart: '11/01/2026 01:30',
      })
      expect(repeated.json().data.starts_at).toBe('2026-11-01T05:30:00.000Z')
      const dayBefore = await agent.post('/api/v1/propose/', {
        ...valid,
        scheduledStart: '10/31/2026 23:30',
      })
      expect(dayBefore.json()).toEqual({ scheduledStart: [PROPOSAL_MESSAGES.tooSoon] })
    } finally {
      clock.set('2026-02-08T01:00:00Z')
    }
  })

  it('refuses minutes other than 0 or 30, malformed dates and every other broken rule', async () => {
    const { agent } = await member()
    for (const scheduledStart of ['03/10/2026 14:15', '03/10/2026 14:01', '03/10/2026 14:59']) {
      const res = await agent.post('/api/v1/propose/', { ...valid, scheduledStart })
      expect(res.json(), scheduledStart).toEqual({ scheduledStart: [PROPOSAL_MESSAGES.halfHour] })
    }
    for (const scheduledStart of ['', '2026-03-10 14:00', '02/30/2026 14:00', '3/10/2026 2pm']) {
      const res = await agent.post('/api/v1/propose/', { ...valid, scheduledStart })
      expect(res.statusCode, scheduledStart).toBe(400)
      expect(res.json().scheduledStart).toEqual([PROPOSAL_MESSAGES.scheduledStart])
    }
    const res = await agent.post('/api/v1/propose/', {
      ...valid,
      title: ' ',
      podcastName: '',
      keywordOne: '',
      keywordTwo: '',
      keywordThree: '',
      linkOne: 'not a url',
      linkTwo: 'javascript:alert(1)',
      description: 'too short',
      podmeisterNote: 'short',
      location: 'mars',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      title: [PROPOSAL_MESSAGES.episode],
      podcastName: [PROPOSAL_MESSAGES.podcast],
      keywordOne: [PROPOSAL_MESSAGES.keyword1],
      keywordTwo: [PROPOSAL_MESSAGES.keyword2],
      keywordThree: [PROPOSAL_MESSAGES.keyword3],
      linkOne: [PROPOSAL_MESSAGES.url],
      linkTwo: [PROPOSAL_MESSAGES.url],
      description: [PROPOSAL_MESSAGES.description],
      podmeisterNote: [PROPOSAL_MESSAGES.podmeisterNote],
      location: [PROPOSAL_MESSAGES.location],
    })
    const long = await agent.post('/api/v1/propose/', { ...valid, title: 'x'.repeat(201) })
    expect(long.statusCode).toBe(400)
    expect((await agent.post('/api/v1/propose/', ['nope'])).statusCode).toBe(400)
    expect((await createAgent(t.app).post('/api/v1/propose/', valid)).statusCode).toBe(401)
  })
})

describe('GET /podcasts/', () => {
  it('suggests podcasts by name and keywords by use', async () => {
    const { agent } = await member()
    const res = await agent.get('/api/v1/podcasts/')
    expect(res.statusCode).toBe(200)
    const { data } = getProposalSuggestionsResponseSchema.parse(res.json())
    expect(data.podcasts).toEqual(expect.arrayContaining(['Radiolab', 'Hidden Brain']))
    expect(data.keywords.slice(0, 3).sort()).toEqual(['attention', 'culture', 'habits'])
    const rows = await t.db
      .select({ id: podclubs.id })
      .from(podclubs)
      .where(eq(podclubs.status, 'upcoming'))
    expect(rows.length).toBeGreaterThan(0)
    expect((await createAgent(t.app).get('/api/v1/podcasts/')).statusCode).toBe(401)
  })
})
