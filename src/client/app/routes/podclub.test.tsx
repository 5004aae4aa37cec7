import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import {
  createHindsightResponseSchema,
  getPodclubDetailResponseSchema,
  type PodclubDetail,
} from '#contract/podclub-detail'
import { member } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

function podclub(overrides: Partial<PodclubDetail> = {}): PodclubDetail {
  return {
    id: 7,
    status: 'completed',
    episode_title: 'The Cathedral',
    episode_number: '12',
    description: 'A talk.',
    podmeister_note: 'Why I chose it.',
    podmeister: { username: 'maya.r', profile: { cred: 4 } },
    starts_at: '2026-12-18T00:30:00.000Z',
    pretty_date: 'Thursday, December 17, 2026',
    pretty_time: '7:30 PM EST',
    location: 'zoom',
    seats_left: 8,
    keyword_one: 'attention',
    keyword_two: '',
    keyword_three: '',
    link_one: '',
    link_two: '',
    link_three: '',
    podcast: { name: 'Radiolab', picture_link: '' },
    api_registered_usernames: { reserved: [{ username: member.username, cred: 2 }] },
    waitlist_count: 0,
    seat_waitlist: { waiting: [] },
    links: [],
    hindsights: [{ username: 'maya.r', message: 'Great night.' }],
    chatlog: '',
    ...overrides,
  }
}

describe('the podclub detail page', () => {
  it('never sends a whitespace-only hindsight, and reloads the podclub after a post', async () => {
    let loads = 0
    const { user, api } = renderWithProviders({
      path: '/podclubs/7',
      currentUser: member,
      handlers: {
        getPodclubDetail: () => {
          loads += 1
          return reply(getPodclubDetailResponseSchema, { data: podclub() })
        },
        submitHindsight: (request) =>
          reply(
            createHindsightResponseSchema,
            {
              data: {
                username: member.username,
                message: String((request.body as { hindsight: string }).hindsight),
              },
            },
            201,
          ),
      },
    })
    await screen.findByRole('heading', { name: 'hindsights (1 / 20)' }, { timeout: 5000 })
    // The chat log without entries is the short panel.
    expect(screen.getByRole('region', { name: 'zoom chat log entries' })).toHaveClass('h-[70px]')
    const post = screen.getByRole('button', { name: '[ post hindsight ]' })
    expect(post).toBeDisabled()
    await user.type(screen.getByLabelText('your hindsight'), '   ')
    expect(post).toBeDisabled()
    await user.type(screen.getByLabelText('your hindsight'), ' so good  ')
    await user.click(post)
    await waitFor(() => expect(loads).toBe(2))
    const [call] = api.callsTo('submitHindsight')
    expect(call?.body).toEqual({ hindsight: 'so good' })
    expect(queryToasts()[0]).toHaveTextContent('Hindsight submitted successfully')
  })

  it('hides the form once 20 hindsights exist', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => ({ username: 'x', message: `m${i}` }))
    renderWithProviders({
      path: '/podclubs/7',
      currentUser: member,
      handlers: {
        getPodclubDetail: () =>
          reply(getPodclubDetailResponseSchema, { data: podclub({ hindsights: twenty }) }),
      },
    })
    await screen.findByRole('heading', { name: 'hindsights (20 / 20)' })
    expect(screen.queryByLabelText('your hindsight')).not.toBeInTheDocument()
  })

  it('sends a non-attendee of a completed podclub home with the toast', async () => {
    const { hindsights: _h, chatlog: _c, ...withoutDiscussion } = podclub()
    const { router } = renderWithProviders({
      path: '/podclubs/7',
      currentUser: member,
      handlers: {
        getPodclubDetail: () => reply(getPodclubDetailResponseSchema, { data: withoutDiscussion }),
      },
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(queryToasts()[0]).toHaveTextContent('You are not a participant of this podclub')
    expect(queryToasts()[0]).toHaveTextContent(
      'You can only view the discussion if you were registered.',
    )
  })

  it("shows 'Failed to fetch podclub' when the podclub cannot load", async () => {
    renderWithProviders({
      path: '/podclubs/7',
      handlers: { getPodclubDetail: () => replyError(503, { detail: 'Try again soon.' }) },
    })
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch podclub')
    expect(screen.getByRole('alert')).toHaveTextContent('Try again soon.')
  })

  it('shows the not-found page, with the way home, for a podclub that does not exist', async () => {
    const { user, router } = renderWithProviders({
      path: '/podclubs/99999',
      handlers: { getPodclubDetail: () => replyError(404, { detail: 'podclub not found' }) },
    })
    await findScreenTitle('Page Not Found')
    expect(screen.queryByText('Failed to fetch podclub')).toBeNull()
    await user.click(screen.getByRole('link', { name: 'Go Home' }))
    await findScreenTitle('home')
    expect(router.state.location.pathname).toBe('/home')
  })
})
