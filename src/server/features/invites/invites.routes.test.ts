import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInviteResponseSchema } from '#contract/invites'
import { inviteCodes } from '../../db/schema/index'
import {
  buildTestApp,
  createAgent,
  createUser,
  type TestApp,
  loggedInMember,
} from '../../testing/test-app'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const member = () => loggedInMember(t)

describe('POST /invite/', () => {
  it('mails a single-use welcome code with the note, escaped in the html part', async () => {
    const { user, agent } = await member()
    const res = await agent.post('/api/v1/invite/', {
      email: 'friend@example.com',
      phone: '',
      note: 'You <b>need</b> to hear the Radiolab one & argue with me.',
      podclubId: '',
    })
    expect(res.statusCode).toBe(200)
    expect(createInviteResponseSchema.parse(res.json()).data.sent).toBe(true)
    const [code] = await t.db
      .select()
      .from(inviteCodes)
      .where(eq(inviteCodes.sentToEmail, 'friend@example.com'))
    expect(code).toMatchObject({ reusable: false, createdById: user.id, usedById: null })

    const mail = (await t.deliverMail()).find((m) => m.to === 'friend@example.com')!
    expect(mail.subject).toBe(`${user.username} invited you to podclub`)
    expect(mail.text).toContain(`http://podclub.test/register/${code!.code}`)
    expect(mail.text).toContain('You <b>need</b> to hear the Radiolab one & argue with me.')
    expect(mail.html).toContain('You &lt;b&gt;need&lt;/b&gt; to hear the Radiolab one &amp; argue')
    expect(mail.html).not.toContain('<b>need</b>')

    // The code signs the friend up, once.
    const signup = await createAgent(t.app).post('/api/v1/signup/', {
      username: `friend.${Date.now() % 100000}`,
      email: 'friend@example.com',
      password: 'longenough',
      inviteCode: code!.code,
      city: 'Queens',
      source: 'a friend',
    })
    expect(signup.statusCode).toBe(201)
  })

  it('leaves an empty note out of the e-mail', async () => {
    const { agent } = await member()
    const res = await agent.post('/api/v1/invite/', { email: 'quiet@example.com', note: '' })
    expect(res.statusCode).toBe(200)
    const mail = (await t.deliverMail()).find((m) => m.to === 'quiet@example.com')!
    expect(mail.text).not.toContain('Their note')
  })

  it('checks the input with the spec messages', async () => {
    const { agent } = await member()
    const cases: [unknown, Record<string, string[]>][] = [
      [{ email: '' }, { email: ['Email is required'] }],
      [{ email: 'not-an-address' }, { email: ['Please enter a valid email address'] }],
      [
        { email: 'ok@example.com', note: 'x'.repeat(501) },
        { note: ['Note must be less than 500 characters'] },
      ],
      [
        { email: 'ok@example.com', note: 'a\u0000b' },
        { note: ['Text must not contain NUL characters.'] },
      ],
    ]
    for (const [body, errors] of cases) {
      const res = await agent.post('/api/v1/invite/', body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual(errors)
    }
  })

  it('asks visitors to log in', async () => {
    const res = await createAgent(t.app).post('/api/v1/invite/', { email: 'x@example.com' })
    expect(res.statusCode).toBe(401)
  })

  it('limits invitations to one address', async () => {
    const limited = await buildTestApp({ rateLimits: true })
    try {
      const user = await createUser(limited)
      const agent = createAgent(limited.app)
      await agent.login(user.username, user.password)
      const statuses = []
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await agent.post('/api/v1/invite/', { email: 'same@example.com' })).statusCode,
        )
      }
      expect(statuses).toEqual([200, 200, 200, 429])
    } finally {
      await limited.close()
    }
  })
})
