import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { okSchema } from '#contract/common'
import { member } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

const ok = () => reply(okSchema, { data: { ok: true } })

describe('forgot password', () => {
  it("says 'Email is required' and 'Please enter a valid email address' without calling", async () => {
    const { user, api } = renderWithProviders({
      path: '/forgot-password',
      handlers: { requestPasswordReset: ok },
    })
    await findScreenTitle('forgot password')
    const send = screen.getByRole('button', { name: '[ send reset link ]' })
    await user.click(send)
    expect(screen.getByLabelText('email')).toHaveAccessibleDescription('Email is required')
    await user.type(screen.getByLabelText('email'), 'nope')
    await user.click(send)
    expect(screen.getByLabelText('email')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    )
    expect(api.callsTo('requestPasswordReset')).toHaveLength(0)
  })

  it("sends the link and says 'Reset link sent'", async () => {
    const { user, api } = renderWithProviders({
      path: '/forgot-password',
      handlers: { requestPasswordReset: ok },
    })
    await findScreenTitle('forgot password')
    await user.type(screen.getByLabelText('email'), ' ada@example.com ')
    await user.click(screen.getByRole('button', { name: '[ send reset link ]' }))
    await screen.findByText(/a link to choose a new password is on its way/)
    expect(api.callsTo('requestPasswordReset')[0]?.body).toEqual({
      email: 'ada@example.com',
    })
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Reset link sent')
    expect(toast).toHaveTextContent('Check your email for instructions to reset your password.')
  })

  it("says 'Failed to send reset link' with the server's message", async () => {
    const { user } = renderWithProviders({
      path: '/forgot-password',
      handlers: {
        requestPasswordReset: () =>
          replyError(429, { detail: 'Too many attempts.', code: 'RATE_LIMITED' }),
      },
    })
    await findScreenTitle('forgot password')
    await user.type(screen.getByLabelText('email'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: '[ send reset link ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to send reset link'))
    expect(queryToasts()[0]).toHaveTextContent('Too many attempts.')
  })

  it('sends a logged-in member home', async () => {
    const { router } = renderWithProviders({ path: '/forgot-password', currentUser: member })
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})

describe('reset password', () => {
  it('shows no form for an invalid token, and says why in a toast', async () => {
    renderWithProviders({
      path: '/password-reset/bad-token',
      handlers: {
        validateResetToken: () =>
          replyError(404, { detail: 'Invalid password reset token.', code: 'NOT_FOUND' }),
      },
    })
    await findScreenTitle('reset password')
    expect(await screen.findByText('invalid password reset token.')).toBeInTheDocument()
    expect(screen.queryByLabelText('new password')).not.toBeInTheDocument()
    await waitFor(() => expect(queryToasts()).toHaveLength(1))
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Invalid reset token')
    expect(toast).toHaveTextContent('Invalid password reset token.')
  })

  it("checks the spec's messages, submits on Enter and sends the user to log in", async () => {
    const { user, api, router } = renderWithProviders({
      path: '/password-reset/good.token',
      handlers: {
        validateResetToken: ok,
        confirmPasswordReset: ok,
      },
    })
    await findScreenTitle('reset password')
    const password = await screen.findByLabelText('new password')
    const confirm = screen.getByLabelText('confirm password')
    expect(api.callsTo('validateResetToken')[0]?.body).toEqual({
      token: 'good.token',
    })

    await user.type(confirm, '{Enter}')
    expect(password).toHaveAccessibleDescription(/Password is required/)
    expect(confirm).toHaveAccessibleDescription('Password confirmation is required')
    await user.type(password, 'short')
    await user.type(confirm, 'short{Enter}')
    expect(password).toHaveAccessibleDescription(/Password must have at least 8 characters/)
    await user.clear(password)
    await user.type(password, 'longenough')
    await user.clear(confirm)
    await user.type(confirm, 'longenougH{Enter}')
    expect(confirm).toHaveAccessibleDescription('Passwords do not match')
    expect(api.callsTo('confirmPasswordReset')).toHaveLength(0)

    await user.clear(confirm)
    await user.type(confirm, 'longenough{Enter}')
    await findScreenTitle('login')
    expect(router.state.location.pathname).toBe('/login')
    expect(api.callsTo('confirmPasswordReset')[0]?.body).toEqual({
      token: 'good.token',
      password: 'longenough',
    })
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Password reset successful')
    expect(toast).toHaveTextContent('Please login with your new password.')
  })

  it("says 'Failed to reset password' with the server's first password error", async () => {
    const { user } = renderWithProviders({
      path: '/password-reset/good.token',
      handlers: {
        validateResetToken: ok,
        confirmPasswordReset: () => replyError(400, { password: ['This password is too common.'] }),
      },
    })
    await findScreenTitle('reset password')
    await user.type(await screen.findByLabelText('new password'), 'password1')
    await user.type(screen.getByLabelText('confirm password'), 'password1{Enter}')
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to reset password'))
    expect(queryToasts()[0]).toHaveTextContent('This password is too common.')
  })

  it('sends a logged-in member home', async () => {
    const { router } = renderWithProviders({ path: '/password-reset/x', currentUser: member })
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})
