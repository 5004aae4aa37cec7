import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { getProfileResponseSchema } from '#contract/profile'
import { member, profileOf } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { renderWithProviders } from '#client/testing/render'

describe('the profile page', () => {
  it('shows the header with cred, "not set" for an empty city, and the stats', async () => {
    renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: {
        getProfile: () => reply(getProfileResponseSchema, { data: profileOf() }),
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

  it('lists upcoming podclubs with picture, podcast, episode, date @ time and a view link, and past ones', async () => {
    renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: {
        getProfile: () =>
          reply(getProfileResponseSchema, {
            data: {
              user: {
                username: member.username,
                email: member.email,
                profile: {
                  cred: 1,
                  city: 'Queens',
                  member_since: '2026-01-15T17:00:00.000Z',
                  completed_podclub_count: 1,
                  completed_podmeister_count: 0,
                },
              },
              upcoming_podclubs: [
                {
                  id: 11,
                  status: 'upcoming',
                  podcast: { name: 'Radiolab', picture_link: 'https://img.example.com/r.png' },
                  episode_title: 'The Cathedral',
                  starts_at: '2027-03-02T00:00:00.000Z',
                  pretty_date: 'Monday, March 1, 2027',
                  pretty_time: '7:00 PM EST',
                  role: 'attendee',
                },
              ],
              past_podclubs: [
                {
                  id: 4,
                  status: 'completed',
                  podcast: { name: 'Hidden Brain', picture_link: '' },
                  episode_title: 'You 2.0',
                  starts_at: '2026-01-02T00:00:00.000Z',
                  pretty_date: 'Thursday, January 1, 2026',
                  pretty_time: '7:00 PM EST',
                  role: 'attendee',
                },
              ],
              calendar_url: 'http://podclub.test/calendar/secret.ics',
            },
          }),
      },
    })
    const upcoming = await screen.findByRole(
      'region',
      { name: 'upcoming podclubs' },
      { timeout: 5000 },
    )
    expect(within(upcoming).getByRole('heading', { name: 'The Cathedral' })).toBeVisible()
    expect(upcoming).toHaveTextContent('Radiolab')
    expect(upcoming).toHaveTextContent('Monday, March 1, 2027 @ 7:00 PM EST')
    expect(upcoming.querySelector('img')).toHaveAttribute('src', 'https://img.example.com/r.png')
    expect(within(upcoming).getByRole('link', { name: 'view The Cathedral' })).toHaveAttribute(
      'href',
      '/podclubs/11',
    )
    expect(screen.queryByText('no upcoming podclubs, go sign up for one!')).toBeNull()
    const past = screen.getByRole('region', { name: 'past podclubs' })
    expect(past).toHaveTextContent('Thursday, January 1, 2026')
    expect(past).not.toHaveTextContent('7:00 PM')
    expect(within(past).getByRole('link', { name: 'view discussion of You 2.0' })).toHaveAttribute(
      'href',
      '/podclubs/4',
    )
  })

  it('counts past podclubs as the list shows them: attended, hosted, and cred their sum', async () => {
    const past = (id: number, title: string, role: 'podmeister' | 'attendee') => ({
      id,
      status: 'completed' as const,
      podcast: { name: 'Hidden Brain', picture_link: '' },
      episode_title: title,
      starts_at: '2026-01-02T00:00:00.000Z',
      pretty_date: 'Thursday, January 1, 2026',
      pretty_time: '7:00 PM EST',
      role,
    })
    renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: {
        getProfile: () =>
          reply(getProfileResponseSchema, {
            data: profileOf(
              {
                cred: 1,
                city: 'Queens',
                completed_podclub_count: 0,
                completed_podmeister_count: 1,
              },
              { past_podclubs: [past(4, 'Hosted Once', 'podmeister')] },
            ),
          }),
      },
    })
    const list = await screen.findByRole('region', { name: 'past podclubs' }, { timeout: 5000 })
    const stats = Object.fromEntries(
      screen
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    )
    expect(stats).toEqual({ 'podclubs attended': '0', 'podclubs hosted': '1', cred: '1' })
    expect(within(list).getByRole('listitem')).toHaveTextContent(
      'Thursday, January 1, 2026 · hosted',
    )
  })

  it('shows the error alert titled Error when the profile cannot load', async () => {
    renderWithProviders({
      path: '/profile',
      currentUser: member,
      handlers: { getProfile: () => replyError(403) },
    })
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert).toHaveTextContent('Error')
    expect(alert).toHaveTextContent('You do not have permission to perform this action')
  })
})
