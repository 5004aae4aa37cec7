import { act, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { envelope } from '#contract/common'
import { member } from '#client/testing/fixtures'
import { networkError, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'
import { api } from './api-client'
import { whoamiQueryOptions } from './auth'

const anySchema = envelope(z.unknown())

describe('session', () => {
  it('treats a failed whoami as a visitor', async () => {
    const { router } = renderWithProviders({
      path: '/profile',
      handlers: { 'GET /whoami/': () => networkError() },
    })
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    expect(
      within(screen.getByRole('banner')).getByRole('link', { name: '[ login ]' }),
    ).toBeInTheDocument()
  })

  it("on a 401 clears the user, goes Home and says 'Session expired. Please login again.'", async () => {
    const { router, queryClient } = renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: { 'GET /profile/': () => replyError(401, { detail: 'Not logged in' }) },
    })
    await findScreenTitle('profile')

    await act(() => api.get('/profile/', anySchema).catch(() => undefined))

    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
    expect(queryClient.getQueryData(whoamiQueryOptions().queryKey)).toEqual({
      isAuthenticated: false,
      user: null,
    })
    expect(
      within(screen.getByRole('banner')).getByRole('link', { name: '[ login ]' }),
    ).toBeInTheDocument()
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Session expired. Please login again.')
  })

  it('keeps the user on a 403', async () => {
    const { router } = renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: { 'GET /profile/': () => replyError(403) },
    })
    await findScreenTitle('profile')
    await act(() => api.get('/profile/', anySchema).catch(() => undefined))
    expect(router.state.location.pathname).toBe('/profile')
    expect(queryToasts()).toHaveLength(0)
  })
})
