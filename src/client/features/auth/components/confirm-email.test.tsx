import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { confirmEmailResponseSchema } from '#contract/accounts'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, renderWithProviders } from '#client/testing/render'

describe('confirm e-mail page', () => {
  it('confirms the address of the link on load', async () => {
    const { api } = renderWithProviders({
      path: '/confirm-email/12/abc.def',
      handlers: {
        confirmEmail: () => reply(confirmEmailResponseSchema, { data: { confirmed: true } }),
      },
    })
    await findScreenTitle('confirm e-mail')
    expect(
      await screen.findByText('Your e-mail address is confirmed. Thank you!'),
    ).toBeInTheDocument()
    expect(api.callsTo('confirmEmail')[0]?.body).toEqual({ uid: 12, token: 'abc.def' })
  })

  it("shows the server's refusal", async () => {
    renderWithProviders({
      path: '/confirm-email/12/old',
      handlers: {
        confirmEmail: () =>
          replyError(400, {
            detail: 'This confirmation link is invalid or has expired.',
            code: 'BAD_REQUEST',
          }),
      },
    })
    await findScreenTitle('confirm e-mail')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This confirmation link is invalid or has expired.',
    )
  })
})
