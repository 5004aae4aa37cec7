import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../db/schema/index'
import { fixedClock } from '../../lib/clock'
import { buildTestApp, createAgent, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { createPollAs, operatorAgent, pollBody } from '../polls/polls.testing'
import { monthlyBlastAs } from './blasts.testing'

const DAY = 86_400_000
const clock = fixedClock('2026-12-01T15:00:00Z')
let t: TestApp
beforeAll(async () => {
  // The public address as an operator might well write it, with a trailing slash.
  t = await buildTestApp({ clock, env: { APP_URL: 'http://podclub.test/' } })
})
afterAll(() => t.close())

async function podclubIn(ahead: number) {
  const host = await createUser(t)
  return insertPodclub(t.db, host.id, { startsAt: new Date(clock.now().getTime() + ahead) })
}

/** Every http(s) address a text mentions. */
const urlsIn = (text: string) => text.match(/https?:\/\/[^\s<>"]+/g) ?? []

describe('links with APP_URL ending in a slash', () => {
  it("puts one slash in the blast's links, and its one-click link unsubscribes", async () => {
    const operator = await operatorAgent(t)
    const reader = await createUser(t)
    const [a, b, c] = [
      await podclubIn(10 * DAY),
      await podclubIn(11 * DAY),
      await podclubIn(12 * DAY),
    ]
    const sent = await monthlyBlastAs(t, operator, {
      podclub_1: a.id,
      podclub_2: b.id,
      podclub_3: c.id,
    })
    expect(sent.status).toBe('done')
    const mail = (await t.deliverMail()).find((m) => m.to === reader.email)!

    const oneClick = /^<(http:\/\/podclub\.test(\/[^>]+))>$/.exec(
      mail.headers?.['List-Unsubscribe'] ?? '',
    )
    expect(oneClick, mail.headers?.['List-Unsubscribe']).not.toBeNull()
    const res = await t.app.inject({
      method: 'POST',
      url: oneClick![2]!,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(res.statusCode, res.body).toBe(200)
    const [row] = await t.db.select().from(users).where(eq(users.id, reader.id))
    expect(row!.blastsUnsubscribedAt).not.toBeNull()

    expect(mail.text).toContain(`http://podclub.test/podclubs/${a.id}\n`)
    expect(mail.text).toContain('http://podclub.test/home?skipSplash=true')
    for (const url of [...urlsIn(mail.text), ...urlsIn(mail.html ?? '')]) {
      expect(new URL(url).pathname, url).not.toMatch(/^\/\//)
    }
  })

  it('puts one slash in the links of invites, vote codes and the club config', async () => {
    const member = await createUser(t)
    const agent = createAgent(t.app, { clock })
    await agent.login(member.username, member.password)
    await agent.post('/api/v1/invite/', { email: 'friend@example.com' })
    const poll = await createPollAs(await operatorAgent(t), pollBody(t))
    await createAgent(t.app, { ip: '10.9.0.1' }).post(`/api/v1/polls/${poll.id}/invite/`, {
      email: 'voter@example.com',
    })
    const mails = await t.deliverMail()
    const invite = mails.find((m) => m.to === 'friend@example.com')!
    expect(invite.text).toMatch(/http:\/\/podclub\.test\/register\/welcome-[\w-]+/)
    const code = mails.find((m) => m.to === 'voter@example.com')!
    expect(code.text).toMatch(new RegExp(`http://podclub\\.test/polls/${poll.id}/[\\w-]+`))
    for (const url of mails.flatMap((m) => urlsIn(m.text))) {
      expect(new URL(url).pathname, url).not.toMatch(/^\/\//)
    }

    const config = (await t.app.inject({ url: '/api/v1/config/' })).json().data
    expect(config.app_url).toBe('http://podclub.test')
    expect(config.invite_link).toBe('http://podclub.test/register/clubcode')
  })
})
