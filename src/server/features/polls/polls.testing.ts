import { expect } from 'vitest'
import { createPollResponseSchema, type CreatePollBody, type Poll } from '#contract/polls'
import type { OutboundMessage } from '../mail/mail.transport'
import { createAgent, createUser, type TestApp } from '../../testing/test-app'

const DAY = 24 * 60 * 60 * 1000

type TestAppLike = Pick<TestApp, 'app' | 'db' | 'clock'>

/** A logged-in super user's client, as the control panel would call with. */
export async function operatorAgent(t: TestAppLike) {
  const admin = await createUser(t, { isSuperuser: true })
  const agent = createAgent(t.app, { ip: '10.200.0.1', clock: t.clock })
  await agent.login(admin.username, admin.password)
  return agent
}

export function pollBody(
  t: Pick<TestApp, 'clock'>,
  overrides: Partial<CreatePollBody> = {},
): CreatePollBody {
  return {
    title: 'Deep dive for December',
    description: 'the most titillating podcast for next month',
    expires_at: new Date(t.clock.now().getTime() + 7 * DAY).toISOString(),
    options: [
      { title: 'Episode one', podcast: 'Radiolab', description: 'Colors', link: 'https://a.test' },
      { title: 'Episode two', podcast: 'Hidden Brain', description: '', link: '' },
      { title: 'Episode three', podcast: '99% Invisible' },
    ],
    ...overrides,
  }
}

export async function createPollAs(
  operator: Awaited<ReturnType<typeof operatorAgent>>,
  body: CreatePollBody,
): Promise<Poll> {
  const res = await operator.post('/api/v1/controlpanel/polls/', body)
  expect(res.statusCode, res.body).toBe(201)
  return createPollResponseSchema.parse(res.json()).data
}

/** The vote code in a vote-code mail's link, or undefined when the mail carries none. */
export function codeFromMail(mail: OutboundMessage, pollId: number): string | undefined {
  const match = new RegExp(`/polls/${pollId}/([\\w-]+)`).exec(mail.text)
  return match?.[1]
}

/** Asks for a code as a visitor and returns it from the delivered mail. */
export async function requestCode(
  t: Pick<TestApp, 'app' | 'deliverMail'>,
  pollId: number,
  email: string,
  ip = '10.100.0.1',
): Promise<string> {
  const res = await createAgent(t.app, { ip }).post(`/api/v1/polls/${pollId}/invite/`, { email })
  expect(res.statusCode, res.body).toBe(200)
  const mails = (await t.deliverMail()).filter((m) => m.to === email)
  expect(mails).toHaveLength(1)
  const code = codeFromMail(mails[0]!, pollId)
  expect(code).toBeTruthy()
  return code!
}
