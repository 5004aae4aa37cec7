import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { okSchema } from '#contract/common'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

describe('waitlist', () => {
  it('needs a valid address, sends all three answers, thanks the visitor and goes to /', async () => {
    const { user, api, router } = renderWithProviders({
      path: '/waitlist',
      handlers: { joinWaitlist: () => reply(okSchema, { data: { ok: true } }) },
    })
    await findScreenTitle('waitlist')
    const join = screen.getByRole('button', { name: '[ join the waitlist ]' })
    await user.type(screen.getByLabelText('email'), 'not an address')
    await user.click(join)
    expect(screen.getByLabelText('email')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    )
    expect(api.callsTo('joinWaitlist')).toHaveLength(0)

    await user.clear(screen.getByLabelText('email'))
    await user.type(screen.getByLabelText('email'), 'listener@example.com')
    await user.type(screen.getByLabelText(/how did you hear/), 'a friend')
    await user.click(join)
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(api.callsTo('joinWaitlist')[0]?.body).toEqual({
      email: 'listener@example.com',
      how: 'a friend',
      favoritePodcast: '',
    })
    expect(queryToasts()[0]).toHaveTextContent(/invite code as soon as a spot opens/)
  })

  it("says 'Error!' and 'Failed to join the waitlist. ' with the message", async () => {
    const { user, router } = renderWithProviders({
      path: '/waitlist',
      handlers: { joinWaitlist: () => replyError(500) },
    })
    await findScreenTitle('waitlist')
    await user.type(screen.getByLabelText('email'), 'listener@example.com')
    await user.click(screen.getByRole('button', { name: '[ join the waitlist ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Error!'))
    expect(queryToasts()[0]).toHaveTextContent(
      'Failed to join the waitlist. Internal server error. Please try again later.',
    )
    expect(router.state.location.pathname).toBe('/waitlist')
  })
})
