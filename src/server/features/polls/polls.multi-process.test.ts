import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollVotes, voteCodes } from '../../db/schema/index'
import { createAgent, type TestApp } from '../../testing/test-app'
import { openTwoApps } from '../../testing/two-apps'
import { createPollAs, operatorAgent, pollBody, requestCode } from './polls.testing'

/**
 * Two app instances on one database, each with its own pool on PostgreSQL, as two app processes
 * behind a balancer: a vote code still votes once.
 */
let a: TestApp
let b: TestApp
let close: () => Promise<void>
beforeAll(async () => {
  ;({ a, b, close } = await openTwoApps())
})
afterAll(() => close())

describe('votes across app processes', () => {
  it('counts exactly one vote for 10 concurrent casts of one fresh code', async () => {
    const poll = await createPollAs(await operatorAgent(a), pollBody(a))
    const code = await requestCode(a, poll.id, `racer.${Date.now()}@example.com`)
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createAgent((i % 2 ? a : b).app, { ip: `10.7.0.${i + 1}` }).post(
          `/api/v1/polls/${poll.id}/cast/`,
          { voteCode: code, optionId: poll.results[i % 3]!.id },
        ),
      ),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(409)])
    const votes = await a.db.select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))
    expect(votes).toHaveLength(1)
    const total = (await b.app.inject({ url: `/api/v1/polls/${poll.id}/` })).json().data.total_votes
    expect(total).toBe(1)
  })

  it('lets a code re-requested during the casts vote at most once for the address', async () => {
    const poll = await createPollAs(await operatorAgent(a), pollBody(a))
    const email = `again.${Date.now()}@example.com`
    const first = await requestCode(a, poll.id, email)
    const casts = Array.from({ length: 6 }, (_, i) =>
      createAgent((i % 2 ? a : b).app, { ip: `10.7.1.${i + 1}` }).post(
        `/api/v1/polls/${poll.id}/cast/`,
        { voteCode: first, optionId: poll.results[0]!.id },
      ),
    )
    const reRequest = createAgent(b.app, { ip: '10.7.1.50' }).post(
      `/api/v1/polls/${poll.id}/invite/`,
      { email },
    )
    const [invite, ...results] = await Promise.all([reRequest, ...casts])
    expect(invite!.statusCode).toBe(200)
    expect(results.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1)
    // Whatever the new mail carries, the address ends up with one vote at most.
    const mails = [...(await a.deliverMail()), ...(await b.deliverMail())]
    for (const mail of mails) {
      const code = new RegExp(`/polls/${poll.id}/([\\w-]+)`).exec(mail.text)?.[1]
      if (code) {
        await createAgent(a.app, { ip: '10.7.1.99' }).post(`/api/v1/polls/${poll.id}/cast/`, {
          voteCode: code,
          optionId: poll.results[1]!.id,
        })
      }
    }
    const votes = await a.db.select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))
    expect(votes).toHaveLength(1)
    expect(await a.db.select().from(voteCodes).where(eq(voteCodes.pollId, poll.id))).toHaveLength(1)
  })

  it('keeps one code row when both processes are asked for the same address at once', async () => {
    const poll = await createPollAs(await operatorAgent(a), pollBody(a))
    const email = `twice.${Date.now()}@example.com`
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createAgent((i % 2 ? a : b).app, { ip: `10.7.2.${i + 1}` }).post(
          `/api/v1/polls/${poll.id}/invite/`,
          { email: i % 3 ? email : email.toUpperCase() },
        ),
      ),
    )
    expect(answers.map((r) => r.statusCode)).toEqual(Array<number>(6).fill(200))
    expect(await a.db.select().from(voteCodes).where(eq(voteCodes.pollId, poll.id))).toHaveLength(1)
    // Of all the codes mailed, exactly the last one stored votes.
    const mails = [...(await a.deliverMail()), ...(await b.deliverMail())]
    const codes = mails
      .map((m) => new RegExp(`/polls/${poll.id}/([\\w-]+)`).exec(m.text)?.[1])
      .filter((c): c is string => !!c)
    expect(codes.length).toBeGreaterThanOrEqual(1)
    const statuses = []
    for (const code of codes) {
      const res = await createAgent(a.app, { ip: '10.7.2.99' }).post(
        `/api/v1/polls/${poll.id}/cast/`,
        { voteCode: code, optionId: poll.results[0]!.id },
      )
      statuses.push(res.statusCode)
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
  })
})
