import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { getProfileResponseSchema } from '#contract/profile'
import { member } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { renderWithProviders } from '#client/testing/render'

describe('the profile page', () => {
  it('shows the header with cred, "not set" for an empty city, and the stats', async () => {
    renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: {
        'GET /profile/': () =>
          reply(getProfileResponseSchema, {
            data: {
              user: {
                username: member.username,
                email: member.email,
                profile: {
                  cred: 5,
                  city: '',
                  member_since: '2026-01-15T17:00:00.000Z',
                  completed_podclub_count: 3,
                  completed_podmeister_count: 2,
                },
              },
              upcoming_podclubs: [],
              past_podclubs: [],
            },
          }),
      },
    })
    expect(await screen.findByText(`[5] ${member.username}`, {}, { timeout: 5000 })).toBeVisible()
    expect(screen.getByText('city: not set')).toBeVisible()
    expect(screen.getByText('member since January 15, 2026')).toBeVisible()
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual(['3', '2', '5'])
    expect(screen.getByRole('link', { name: 'browse podclubs' })).toHaveAttribute(
      'href',
      '/home?skipSplash=true',
    )
  })

  it('shows the error alert titled Error when the profile cannot load', async () => {
    renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: { 'GET /profile/': () => replyError(403) },
    })
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert).toHaveTextContent('Error')
    expect(alert).toHaveTextContent('You do not have permission to perform this action')
  })
})
