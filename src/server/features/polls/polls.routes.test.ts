import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLUB_TIME_MESSAGES } from '#contract/club-time'
import { getPollResponseSchema, pollSchema } from '#contract/polls'
import { pollVotes, voteCodes } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { limitKeys } from '../../plugins/rate-limit'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { codeFromMail, createPollAs, operatorAgent, pollBody, requestCode } from './polls.testing'
import { pollLimits } from './polls.routes'

const START = '2026-11-10T17:00:00.000Z'
const DAY = 24 * 60 * 60 * 1000

let t: TestApp
let operator: Awaited<ReturnType<typeof operatorAgent>>
const clock = fixedClock(START)
beforeAll(async () => {
  t = await buildTestApp({ clock })
  operator = await operatorAgent(t)
})
afterAll(() => t.close())

let ipSeq = 0
const visitor = () => createAgent(t.app, { ip: `10.1.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` })
let mailSeq = 0
const freshEmail = () => `voter${++mailSeq}.${Date.now()}@example.com`

const readPoll = async (path: string) => {
  const res = await visitor().get(path)
  expect(res.statusCode, res.body).toBe(200)
  return getPollResponseSchema.parse(res.json()).data
}

const cast = (pollId: number, voteCode: string, optionId: number) =>
  visitor().post(`/api/v1/polls/${pollId}/cast/`, { voteCode, optionId })

describe('creating a poll (operator call)', () => {
  it('answers the new poll with its id, options in order and no votes', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    expect(poll.id).toBeGreaterThan(0)
    expect(poll.title).toBe('Deep dive for December')
    expect(poll.results.map((r) => r.title)).toEqual([
      'Episode one',
      'Episode two',
      'Episode three',
    ])
    expect(poll.results.every((r) => r.votes === 0 && r.percentage === 0)).toBe(true)
    expect(poll).toMatchObject({ is_active: true, is_expired: false, total_votes: 0 })
    // 7 days after 12:00 New York time.
    expect(poll.pretty_date).toBe('Tuesday, November 17, 2026')
    expect(poll.pretty_time).toBe('12:00 PM EST')
    expect(await readPoll(`/api/v1/polls/${poll.id}/`)).toEqual(poll)
  })

  it('is for super users only', async () => {
    const anonymous = await visitor().post('/api/v1/controlpanel/polls/', pollBody(t))
    expect(anonymous.statusCode).toBe(401)
    const member = await createUser(t)
    const agent = createAgent(t.app, { ip: '10.2.0.1', clock })
    await agent.login(member.username, member.password)
    const res = await agent.post('/api/v1/controlpanel/polls/', pollBody(t))
    expect(res.statusCode).toBe(403)
  })

  it('takes 2 to 10 options', async () => {
    const option = { title: 'An episode' }
    const one = await operator.post('/api/v1/controlpanel/polls/', {
      ...pollBody(t),
      options: [option],
    })
    expect(one.statusCode).toBe(400)
    expect(one.json()).toEqual({ options: ['Give 2 to 10 options'] })
    const eleven = await operator.post('/api/v1/controlpanel/polls/', {
      ...pollBody(t),
      options: Array.from({ length: 11 }, () => option),
    })
    expect(eleven.statusCode).toBe(400)
    const ten = await createPollAs(operator, {
      ...pollBody(t),
      options: Array.from({ length: 10 }, (_, i) => ({ title: `Episode ${i}` })),
    })
    expect(ten.results).toHaveLength(10)
  })

  it('refuses an expiry that is not in the future', async () => {
    const res = await operator.post('/api/v1/controlpanel/polls/', {
      ...pollBody(t),
      expires_at: new Date(clock.now().getTime()).toISOString(),
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ expires_at: [CLUB_TIME_MESSAGES.past] })
  })

  it('answers 400, never 500, to malformed polls', async () => {
    const bad = [
      {},
      { ...pollBody(t), expires_at: 'next tuesday' },
      { ...pollBody(t), title: '   ' },
      { ...pollBody(t), title: 'a\u0000b' },
      { ...pollBody(t), options: 'two' },
      { ...pollBody(t), options: [{ title: 'a', link: 'javascript:alert(1)' }, { title: 'b' }] },
    ]
    for (const body of bad) {
      const res = await operator.post('/api/v1/controlpanel/polls/', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
    }
  })
})

describe('reading a poll', () => {
  it('answers 404 for an unknown poll and 400 for a malformed id', async () => {
    expect((await visitor().get('/api/v1/polls/999999/')).statusCode).toBe(404)
    const malformed = await visitor().get('/api/v1/polls/abc/')
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json()).toEqual({ pollId: ['Poll not found'] })
    expect((await visitor().get('/api/v1/polls/99999999999/')).statusCode).toBe(400)
    expect((await visitor().get('/api/v1/polls/999999/somecode/')).statusCode).toBe(404)
  })

  it('sorts results by votes with equal shares for ties and zero for options without votes', async () => {
    const poll = await createPollAs(operator, {
      ...pollBody(t),
      options: ['A', 'B', 'C', 'D'].map((title) => ({ title })),
    })
    const [a, b, c] = poll.results
    // B and C get one vote each, A two, D none.
    const picks = [a!.id, b!.id, c!.id, a!.id]
    for (const optionId of picks) {
      const code = await requestCode(t, poll.id, freshEmail())
      expect((await cast(poll.id, code, optionId)).statusCode).toBe(200)
    }
    const read = await readPoll(`/api/v1/polls/${poll.id}/`)
    expect(read.total_votes).toBe(4)
    expect(read.results.map((r) => [r.title, r.votes, r.percentage])).toEqual([
      ['A', 2, 50],
      ['B', 1, 25],
      ['C', 1, 25],
      ['D', 0, 0],
    ])

    const threeWay = await createPollAs(operator, {
      ...pollBody(t),
      options: ['X', 'Y', 'Z'].map((title) => ({ title })),
    })
    for (const option of threeWay.results) {
      const code = await requestCode(t, threeWay.id, freshEmail())
      expect((await cast(threeWay.id, code, option.id)).statusCode).toBe(200)
    }
    const tied = await readPoll(`/api/v1/polls/${threeWay.id}/`)
    expect(tied.results.map((r) => r.percentage)).toEqual([33.3, 33.3, 33.3])
    expect(tied.results.map((r) => r.title)).toEqual(['X', 'Y', 'Z'])
  })

  it('says whether a code is valid, used or unknown', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const plain = await readPoll(`/api/v1/polls/${poll.id}/`)
    expect(plain).toMatchObject({ vote_code_valid: null, vote_code_error: null })

    const unknown = await readPoll(`/api/v1/polls/${poll.id}/not-a-code/`)
    expect(unknown).toMatchObject({
      vote_code_valid: false,
      vote_code_error: 'Invalid or expired vote code',
    })

    const code = await requestCode(t, poll.id, freshEmail())
    expect(await readPoll(`/api/v1/polls/${poll.id}/${code}/`)).toMatchObject({
      vote_code_valid: true,
      vote_code_error: null,
    })
    // A code belongs to its poll only.
    const other = await createPollAs(operator, pollBody(t))
    expect(await readPoll(`/api/v1/polls/${other.id}/${code}/`)).toMatchObject({
      vote_code_valid: false,
      vote_code_error: 'Invalid or expired vote code',
    })

    expect((await cast(poll.id, code, poll.results[0]!.id)).statusCode).toBe(200)
    expect(await readPoll(`/api/v1/polls/${poll.id}/${code}/`)).toMatchObject({
      vote_code_valid: false,
      vote_code_error: 'This code has already been used',
    })
  })
})

describe('asking for a vote code', () => {
  it('mails a link with a code that is stored only as a hash', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const email = freshEmail()
    const res = await visitor().post(`/api/v1/polls/${poll.id}/invite/`, { email: ` ${email} ` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ data: { ok: true } })
    const [mail, ...rest] = await t.deliverMail()
    expect(rest).toHaveLength(0)
    expect(mail!.to).toBe(email)
    expect(mail!.subject).toBe('Your vote code for Deep dive for December')
    const code = codeFromMail(mail!, poll.id)!
    expect(mail!.text).toContain(`http://podclub.test/polls/${poll.id}/${code}\n`)
    expect(mail!.html).toContain(`href="http://podclub.test/polls/${poll.id}/${code}"`)
    // The club's frame, as every mail has: its name in both parts, a full HTML document.
    expect(mail!.text).toContain('podclub')
    expect(mail!.html).toMatch(/^<!doctype html>/)
    expect(mail!.html).toContain('podclub<span')
    expect(mail!.text).not.toMatch(/<[a-z]/i)
    const rows = await t.db.select().from(voteCodes).where(eq(voteCodes.pollId, poll.id))
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(code)
  })

  it('escapes the poll title in the HTML part', async () => {
    const poll = await createPollAs(operator, pollBody(t, { title: '<b>Bold</b> & "quoted"' }))
    await visitor().post(`/api/v1/polls/${poll.id}/invite/`, { email: freshEmail() })
    const [mail] = await t.deliverMail()
    expect(mail!.html).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot;')
    expect(mail!.html).not.toContain('<b>Bold')
  })

  it('gives the same address a fresh code that replaces the unused one, and never a second vote', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const email = freshEmail()
    const first = await requestCode(t, poll.id, email)
    const second = await requestCode(
      t,
      poll.id,
      email.toUpperCase().replace('@EXAMPLE.COM', '@example.com'),
    )
    expect(second).not.toBe(first)
    expect(await readPoll(`/api/v1/polls/${poll.id}/${first}/`)).toMatchObject({
      vote_code_valid: false,
    })
    const stale = await cast(poll.id, first, poll.results[0]!.id)
    expect(stale.statusCode).toBe(400)
    expect(stale.json().detail).toBe('Invalid or expired vote code')
    expect((await cast(poll.id, second, poll.results[0]!.id)).statusCode).toBe(200)

    // Asked again after voting: a mail that says so, with no code in it.
    const again = await visitor().post(`/api/v1/polls/${poll.id}/invite/`, { email })
    expect(again.statusCode).toBe(200)
    const [mail] = await t.deliverMail()
    expect(mail!.subject).toBe('You have already voted in Deep dive for December')
    expect(codeFromMail(mail!, poll.id)).toBeUndefined()
    expect(mail!.text).toContain(`http://podclub.test/polls/${poll.id}\n`)
    expect(mail!.html).toContain(`href="http://podclub.test/polls/${poll.id}"`)
    for (const code of [first, second]) {
      expect((await cast(poll.id, code, poll.results[1]!.id)).statusCode).toBeGreaterThanOrEqual(
        400,
      )
    }
    const read = await readPoll(`/api/v1/polls/${poll.id}/`)
    expect(read.total_votes).toBe(1)
    expect(await t.db.select().from(voteCodes).where(eq(voteCodes.pollId, poll.id))).toHaveLength(1)
  })

  it('answers members and strangers alike', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const member = await createUser(t)
    const answers = []
    for (const email of [member.email, freshEmail()]) {
      const res = await visitor().post(`/api/v1/polls/${poll.id}/invite/`, { email })
      answers.push({ status: res.statusCode, body: res.body, type: res.headers['content-type'] })
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]!.status).toBe(200)
    const mails = await t.deliverMail()
    expect(mails.map((m) => m.subject)).toEqual([
      'Your vote code for Deep dive for December',
      'Your vote code for Deep dive for December',
    ])
  })

  it("refuses a bad address with the spec's message", async () => {
    const poll = await createPollAs(operator, pollBody(t))
    for (const email of ['not-an-address', '', 42, null]) {
      const res = await visitor().post(`/api/v1/polls/${poll.id}/invite/`, { email })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ email: ['Please enter a valid email address'] })
    }
    expect(
      (await visitor().post('/api/v1/polls/999999/invite/', { email: freshEmail() })).statusCode,
    ).toBe(404)
  })
})

describe('casting a vote', () => {
  it('counts the vote and answers the poll as it now stands', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const code = await requestCode(t, poll.id, freshEmail())
    const option = poll.results[2]!
    const res = await cast(poll.id, code, option.id)
    expect(res.statusCode).toBe(200)
    const after = pollSchema.parse(res.json().data)
    expect(after.results[0]).toMatchObject({ id: option.id, votes: 1, percentage: 100 })
    expect(after).toMatchObject({ total_votes: 1, vote_code_valid: false })

    const twice = await cast(poll.id, code, option.id)
    expect(twice.statusCode).toBe(409)
    expect(twice.json()).toEqual({
      detail: 'This code has already been used',
      code: 'VOTE_CODE_USED',
    })
  })

  it('refuses an option of another poll and an unknown code', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const other = await createPollAs(operator, pollBody(t))
    const code = await requestCode(t, poll.id, freshEmail())
    const foreign = await cast(poll.id, code, other.results[0]!.id)
    expect(foreign.statusCode).toBe(400)
    expect(foreign.json()).toEqual({ optionId: ['This option is not part of this poll'] })
    const unknown = await cast(poll.id, 'made-up-code', poll.results[0]!.id)
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().detail).toBe('Invalid or expired vote code')
    // The code of this poll does not vote in another one.
    expect((await cast(other.id, code, other.results[0]!.id)).statusCode).toBe(400)
    // Nothing was counted, and the code still works here.
    expect((await cast(poll.id, code, poll.results[0]!.id)).statusCode).toBe(200)
  })

  it('answers 400, never 500, to malformed votes', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    for (const body of [
      {},
      { voteCode: 'x' },
      { voteCode: 'x', optionId: 'one' },
      { voteCode: 'x', optionId: -1 },
      { voteCode: 'x', optionId: 99999999999 },
      { voteCode: '', optionId: 1 },
      { voteCode: 'a\u0000', optionId: 1 },
      { voteCode: 'x'.repeat(500), optionId: 1 },
    ]) {
      const res = await visitor().post(`/api/v1/polls/${poll.id}/cast/`, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
    }
  })

  it('counts exactly one vote for 10 concurrent casts with one code', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const code = await requestCode(t, poll.id, freshEmail())
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => cast(poll.id, code, poll.results[i % 3]!.id)),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(409)])
    expect(await t.db.select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))).toHaveLength(1)
  })

  it('refuses votes and new codes once the poll has expired', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const code = await requestCode(t, poll.id, freshEmail())
    const voted = await requestCode(t, poll.id, freshEmail())
    expect((await cast(poll.id, voted, poll.results[1]!.id)).statusCode).toBe(200)
    clock.advance(7 * DAY)
    try {
      const late = await cast(poll.id, code, poll.results[0]!.id)
      expect(late.statusCode).toBe(409)
      expect(late.json().detail).toBe('This poll has expired')
      const invite = await visitor().post(`/api/v1/polls/${poll.id}/invite/`, {
        email: freshEmail(),
      })
      expect(invite.statusCode).toBe(409)
      expect(invite.json().detail).toBe('This poll has expired')
      expect(await t.deliverMail()).toHaveLength(0)
      const read = await readPoll(`/api/v1/polls/${poll.id}/${code}/`)
      expect(read).toMatchObject({
        is_active: false,
        is_expired: true,
        total_votes: 1,
        vote_code_valid: false,
        vote_code_error: 'This poll has expired',
      })
    } finally {
      clock.set(START)
    }
  })

  it('judges a code alike on the poll window and at the vote, open or expired', async () => {
    const poll = await createPollAs(operator, pollBody(t))
    const fresh = await requestCode(t, poll.id, freshEmail())
    const used = await requestCode(t, poll.id, freshEmail())
    expect((await cast(poll.id, used, poll.results[0]!.id)).statusCode).toBe(200)
    const codes = { fresh, used, unknown: 'never-mailed-code' }

    const judged = async () => {
      const verdicts: Record<string, { page: string | null; vote: string | null }> = {}
      for (const [name, code] of Object.entries(codes)) {
        const page = await readPoll(`/api/v1/polls/${poll.id}/${code}/`)
        // The vote itself is left for last: it would use the fresh code up.
        verdicts[name] = { page: page.vote_code_error, vote: null }
      }
      for (const [name, code] of Object.entries(codes).reverse()) {
        const res = await cast(poll.id, code, poll.results[1]!.id)
        verdicts[name]!.vote = res.statusCode === 200 ? null : (res.json().detail as string)
      }
      return verdicts
    }

    clock.advance(7 * DAY)
    try {
      // Expired: the page and the vote name the same reason for each code.
      expect(await judged()).toEqual({
        fresh: { page: 'This poll has expired', vote: 'This poll has expired' },
        used: { page: 'This code has already been used', vote: 'This code has already been used' },
        unknown: { page: 'Invalid or expired vote code', vote: 'Invalid or expired vote code' },
      })
    } finally {
      clock.set(START)
    }
    // Open: the fresh code may vote on both, the others are refused alike.
    expect(await judged()).toEqual({
      fresh: { page: null, vote: null },
      used: { page: 'This code has already been used', vote: 'This code has already been used' },
      unknown: { page: 'Invalid or expired vote code', vote: 'Invalid or expired vote code' },
    })
  })
})

describe('API description', () => {
  it('lists the poll calls in the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' })
    expect(res.statusCode).toBe(200)
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths)
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/polls/{pollId}/',
        '/api/v1/polls/{pollId}/{voteCode}/',
        '/api/v1/polls/{pollId}/invite/',
        '/api/v1/polls/{pollId}/cast/',
        '/api/v1/controlpanel/polls/',
      ]),
    )
  })
})

describe('rate limits', () => {
  it('answers 429 with Retry-After to too many code requests for one address', async () => {
    const limited = await buildTestApp({ clock: fixedClock(START), rateLimits: true })
    try {
      const op = await operatorAgent(limited)
      const poll = await createPollAs(op, pollBody(limited))
      const email = freshEmail()
      for (let i = 0; i < 5; i++) {
        const res = await createAgent(limited.app, { ip: `10.3.0.${i + 1}` }).post(
          `/api/v1/polls/${poll.id}/invite/`,
          { email },
        )
        expect(res.statusCode).toBe(200)
      }
      const over = await createAgent(limited.app, { ip: '10.3.0.99' }).post(
        `/api/v1/polls/${poll.id}/invite/`,
        { email: email.toUpperCase() },
      )
      expect(over.statusCode).toBe(429)
      expect(over.json().code).toBe('RATE_LIMITED')
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)

      // One client asking for many addresses is limited too.
      const client = createAgent(limited.app, { ip: '10.3.1.1' })
      const statuses: number[] = []
      for (let i = 0; i < 21; i++) {
        const res = await client.post(`/api/v1/polls/${poll.id}/invite/`, { email: freshEmail() })
        statuses.push(res.statusCode)
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true)
      expect(statuses[20]).toBe(429)
    } finally {
      await limited.close()
    }
  })

  it('answers 429 to a client checking vote codes far more often than people do', async () => {
    const limited = await buildTestApp({ clock: fixedClock(START), rateLimits: true })
    try {
      const op = await operatorAgent(limited)
      const poll = await createPollAs(op, pollBody(limited))
      const ip = '10.3.3.1'
      // Nearly the whole budget spent already, as a script going through codes would have.
      for (let i = 0; i < pollLimits.codeCheck.points - 1; i++) {
        await limited.app.rateLimit.consume(pollLimits.codeCheck, limitKeys.ip(ip))
      }
      const checker = createAgent(limited.app, { ip })
      const last = await checker.get(`/api/v1/polls/${poll.id}/guess-1/`)
      expect(last.statusCode).toBe(200)
      const over = await checker.get(`/api/v1/polls/${poll.id}/guess-2/`)
      expect(over.statusCode).toBe(429)
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
      const other = createAgent(limited.app, { ip: '10.3.3.2' })
      expect((await other.get(`/api/v1/polls/${poll.id}/guess-3/`)).statusCode).toBe(200)
    } finally {
      await limited.close()
    }
  })

  it('answers 429 with Retry-After to a client guessing vote codes', async () => {
    const limited = await buildTestApp({ clock: fixedClock(START), rateLimits: true })
    try {
      const op = await operatorAgent(limited)
      const poll = await createPollAs(op, pollBody(limited))
      const guesser = createAgent(limited.app, { ip: '10.3.2.1' })
      const statuses: number[] = []
      for (let i = 0; i < 31; i++) {
        const res = await guesser.post(`/api/v1/polls/${poll.id}/cast/`, {
          voteCode: `guess-${i}`,
          optionId: poll.results[0]!.id,
        })
        statuses.push(res.statusCode)
        if (res.statusCode === 429) {
          expect(res.json().code).toBe('RATE_LIMITED')
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        }
      }
      expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true)
      expect(statuses[30]).toBe(429)
      // Another client still votes.
      const code = await requestCode(limited, poll.id, freshEmail(), '10.3.2.2')
      const vote = await createAgent(limited.app, { ip: '10.3.2.3' }).post(
        `/api/v1/polls/${poll.id}/cast/`,
        { voteCode: code, optionId: poll.results[0]!.id },
      )
      expect(vote.statusCode).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
