import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { unsubscribeResponseSchema } from '#contract/control-panel'
import { reply, replyError, type Handler } from '#client/testing/mock-api'
import { findScreenTitle, renderWithProviders } from '#client/testing/render'

async function renderUnsubscribe(path: string, answer?: Handler) {
  const view = renderWithProviders({
    path,
    handlers: answer ? { unsubscribe: answer } : {},
  })
  await findScreenTitle('unsubscribe')
  return view
}

describe('unsubscribe page', () => {
  it('turns blasts off with the link of the e-mail, and says reminders still come', async () => {
    const { user, api } = await renderUnsubscribe('/unsubscribe/42/tok-en_1', () =>
      reply(unsubscribeResponseSchema, { data: { unsubscribed: true } }),
    )
    await user.click(screen.getByRole('button', { name: 'Unsubscribe from monthly e-mails' }))

    const done = await screen.findByRole('status')
    expect(done).toHaveTextContent('You are unsubscribed from the monthly e-mails.')
    expect(done).toHaveTextContent('Reminders for seats you hold still come')
    expect(api.callsTo('unsubscribe')[0]?.body).toEqual({ uid: 42, token: 'tok-en_1' })
  })

  it("shows the server's refusal of a bad token", async () => {
    const { user } = await renderUnsubscribe('/unsubscribe/42/forged', () =>
      replyError(404, { detail: 'This unsubscribe link is not valid.', code: 'NOT_FOUND' }),
    )
    await user.click(screen.getByRole('button', { name: 'Unsubscribe from monthly e-mails' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This unsubscribe link is not valid.',
    )
  })

  it('says a link with a malformed member id is not valid, without calling', async () => {
    const { api } = await renderUnsubscribe('/unsubscribe/abc/token')
    expect(screen.getByRole('alert')).toHaveTextContent('This unsubscribe link is not valid.')
    expect(screen.queryByRole('button', { name: 'Unsubscribe from monthly e-mails' })).toBeNull()
    expect(api.callsTo('unsubscribe')).toHaveLength(0)
  })
})
