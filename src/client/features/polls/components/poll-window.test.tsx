import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createPollInviteResponseSchema,
  getPollResponseSchema,
  type Poll,
  type PollResult,
} from '#contract/polls'
import { reply, replyError, type Handlers } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'
import { CONFETTI_PIECES } from './confetti'

const CODE = 'Abc123xyZ-0987654321abcdefghij'

const option = (id: number, votes: number, percentage: number): PollResult => ({
  id,
  title: `Episode ${id}`,
  podcast: `Podcast ${id}`,
  description: `About episode ${id}`,
  link: `https://example.com/${id}`,
  votes,
  percentage,
})

function pollOf(overrides: Partial<Poll> = {}): Poll {
  return {
    id: 7,
    title: 'Deep dive for December',
    description: 'the most titillating podcast',
    pretty_date: 'Tuesday, December 1, 2026',
    pretty_time: '12:00 PM EST',
    is_active: true,
    is_expired: false,
    expires_at: '2026-12-01T17:00:00.000Z',
    total_votes: 3,
    results: [option(2, 2, 66.7), option(1, 1, 33.3), option(3, 0, 0)],
    vote_code_valid: null,
    vote_code_error: null,
    ...overrides,
  }
}

const pollHandlers = (poll: Poll, extra: Handlers = {}): Handlers => ({
  getPoll: () => reply(getPollResponseSchema, { data: { ...poll, vote_code_valid: null } }),
  getPollWithCode: () => reply(getPollResponseSchema, { data: poll }),
  ...extra,
})

const voteButtons = () => screen.queryAllByRole('button', { name: /^\[ vote \]/ })

beforeEach(() => window.sessionStorage.clear())
afterEach(() => vi.useRealTimers())

describe('poll window', () => {
  it("says 'No Poll Selected' without a poll id", async () => {
    renderWithProviders({ path: '/polls' })
    await findScreenTitle('No Poll Selected')
  })

  it('shows the poll, its options most votes first with percentages, votes and a footer', async () => {
    const { api } = renderWithProviders({ path: '/polls/7', handlers: pollHandlers(pollOf()) })
    await findScreenTitle('Deep dive for December')
    expect(screen.getByText('the most titillating podcast')).toBeInTheDocument()
    expect(screen.getByText(/Tuesday, December 1, 2026 at 12:00 PM EST/)).toBeInTheDocument()
    const options = within(screen.getByRole('list', { name: /options/i })).getAllByRole('listitem')
    expect(options.map((o) => within(o).getByRole('heading').textContent)).toEqual([
      'Episode 2',
      'Episode 1',
      'Episode 3',
    ])
    expect(options[0]).toHaveTextContent('66.7%')
    expect(options[0]).toHaveTextContent('2 votes')
    expect(options[1]).toHaveTextContent('1 vote')
    expect(within(options[0]!).getByRole('link', { name: /listen to Episode 2/ })).toHaveAttribute(
      'href',
      'https://example.com/2',
    )
    // Active, no code: no winner, no Vote buttons, the #voteordie card.
    expect(screen.queryByText('Winner')).not.toBeInTheDocument()
    expect(voteButtons()).toHaveLength(0)
    expect(screen.getByRole('heading', { name: '#voteordie' })).toBeInTheDocument()
    expect(screen.getByText('Voting is open')).toBeInTheDocument()
    expect(screen.getByText('Dec 1, 2026, 12:00 PM EST')).toBeInTheDocument()
    expect(api.callsTo('getPoll')).toHaveLength(1)
  })

  it('shows Winner on the top option of an expired poll with votes, and no #voteordie card', async () => {
    renderWithProviders({
      path: `/polls/7/${CODE}`,
      handlers: pollHandlers(
        pollOf({
          is_active: false,
          is_expired: true,
          vote_code_valid: false,
          vote_code_error: 'This poll has expired',
        }),
      ),
    })
    await findScreenTitle('Deep dive for December')
    const options = within(screen.getByRole('list', { name: /options/i })).getAllByRole('listitem')
    expect(within(options[0]!).getByText('Winner')).toBeInTheDocument()
    // Read as a word of its own after the title, not run into it.
    expect(
      within(options[0]!).getByRole('heading', { name: 'Episode 2 Winner' }),
    ).toBeInTheDocument()
    expect(screen.getAllByText('Winner')).toHaveLength(1)
    expect(screen.queryByRole('heading', { name: '#voteordie' })).not.toBeInTheDocument()
    expect(voteButtons()).toHaveLength(0)
    expect(screen.getByText('Voting has closed')).toBeInTheDocument()
    expect(screen.getByText(/invalid: This poll has expired/)).toBeInTheDocument()
  })

  it('says voting has closed on an expired poll, even to a visitor who voted in it', async () => {
    window.sessionStorage.setItem('podclub.poll.7.voted', '1')
    renderWithProviders({
      path: '/polls/7',
      handlers: pollHandlers(pollOf({ is_active: false, is_expired: true })),
    })
    await findScreenTitle('Deep dive for December')
    expect(screen.getByText('Voting has closed')).toBeInTheDocument()
    expect(screen.queryByText('You have voted. Thank you!')).not.toBeInTheDocument()
  })

  it('shows no Winner on an expired poll without votes', async () => {
    const empty = pollOf({
      is_active: false,
      is_expired: true,
      total_votes: 0,
      results: [option(1, 0, 0), option(2, 0, 0)],
    })
    renderWithProviders({ path: '/polls/7', handlers: pollHandlers(empty) })
    await findScreenTitle('Deep dive for December')
    expect(screen.queryByText('Winner')).not.toBeInTheDocument()
  })

  it("shows the code's first 8 characters and the server's reason when it is not valid", async () => {
    renderWithProviders({
      path: `/polls/7/${CODE}`,
      handlers: pollHandlers(
        pollOf({ vote_code_valid: false, vote_code_error: 'This code has already been used' }),
      ),
    })
    await findScreenTitle('Deep dive for December')
    expect(screen.getByText(/^Abc123xy…/)).toHaveTextContent(
      'Abc123xy… (invalid: This code has already been used)',
    )
    expect(screen.queryByText(new RegExp(CODE))).not.toBeInTheDocument()
    expect(voteButtons()).toHaveLength(0)
  })

  it('votes with a valid code, celebrates, hides the Vote buttons and keeps that across a reload', async () => {
    let voted = false
    const handlers = pollHandlers(pollOf({ vote_code_valid: true }), {
      getPollWithCode: () =>
        reply(getPollResponseSchema, {
          data: voted
            ? pollOf({ vote_code_valid: false, vote_code_error: 'This code has already been used' })
            : pollOf({ vote_code_valid: true }),
        }),
      castVote: () => {
        voted = true
        return reply(getPollResponseSchema, {
          data: pollOf({
            vote_code_valid: false,
            vote_code_error: 'This code has already been used',
          }),
        })
      },
    })
    const first = renderWithProviders({ path: `/polls/7/${CODE}`, handlers })
    await findScreenTitle('Deep dive for December')
    expect(screen.getByText(/^Abc123xy…/)).toHaveTextContent('Abc123xy… (valid)')
    expect(voteButtons()).toHaveLength(3)

    await first.user.click(screen.getByRole('button', { name: '[ vote ] for Episode 1' }))
    await waitFor(() => expect(voteButtons()).toHaveLength(0))
    expect(first.api.callsTo('castVote')[0]?.body).toEqual({
      voteCode: CODE,
      optionId: 1,
    })
    expect(screen.getByText('Vote submitted successfully!')).toHaveAttribute('role', 'status')
    // Right before the status that takes focus, so it is in view where the page scrolls to.
    expect(screen.getByText('You have voted. Thank you!').previousElementSibling).toBe(
      screen.getByText('Vote submitted successfully!'),
    )
    const confetti = screen.getByTestId('confetti')
    expect(confetti).toHaveAttribute('aria-hidden', 'true')
    expect(confetti.children).toHaveLength(CONFETTI_PIECES)
    expect(screen.getByText('You have voted. Thank you!')).toHaveFocus()
    expect(screen.getByText(/^Abc123xy…/)).toHaveTextContent('Abc123xy… (used for your vote)')
    // The Vote buttons stay reachable for assistive tech: the confetti layer is hidden from it.
    expect(within(confetti).queryAllByRole('button')).toHaveLength(0)
    first.unmount()

    // A reload within the celebration: still voted, still celebrating.
    renderWithProviders({ path: `/polls/7/${CODE}`, handlers })
    await findScreenTitle('Deep dive for December')
    expect(screen.getByText('You have voted. Thank you!')).toBeInTheDocument()
    expect(screen.getByTestId('confetti')).toBeInTheDocument()
    expect(screen.getByText('Vote submitted successfully!')).toBeInTheDocument()
    expect(voteButtons()).toHaveLength(0)
    await waitFor(() => expect(screen.queryByTestId('confetti')).not.toBeInTheDocument(), {
      timeout: 4000,
    })
    expect(screen.queryByText('Vote submitted successfully!')).not.toBeInTheDocument()
  })

  it('draws no confetti under reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('reduce'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }))
    const { user } = renderWithProviders({
      path: `/polls/7/${CODE}`,
      handlers: pollHandlers(pollOf({ vote_code_valid: true }), {
        castVote: () => reply(getPollResponseSchema, { data: pollOf({ vote_code_valid: false }) }),
      }),
    })
    await findScreenTitle('Deep dive for December')
    await user.click(screen.getByRole('button', { name: '[ vote ] for Episode 2' }))
    await screen.findByText('You have voted. Thank you!')
    expect(screen.queryByTestId('confetti')).not.toBeInTheDocument()
  })

  it("shows 'Failed to cast vote' with the server's detail", async () => {
    const { user } = renderWithProviders({
      path: `/polls/7/${CODE}`,
      handlers: pollHandlers(pollOf({ vote_code_valid: true }), {
        castVote: () => replyError(409, { detail: 'This poll has expired', code: 'CONFLICT' }),
      }),
    })
    await findScreenTitle('Deep dive for December')
    await user.click(screen.getByRole('button', { name: '[ vote ] for Episode 2' }))
    await screen.findByText('Failed to cast vote', { selector: 'li *' })
    expect(queryToasts()[0]).toHaveTextContent('This poll has expired')
    expect(voteButtons()).toHaveLength(3)
  })

  it("shows 'Error Loading Poll' and loads again with Try Again", async () => {
    let fail = true
    const { user } = renderWithProviders({
      path: '/polls/7',
      handlers: {
        getPoll: () =>
          fail
            ? replyError(503, { detail: 'Try again soon.', code: 'INTERNAL' })
            : reply(getPollResponseSchema, { data: pollOf() }),
      },
    })
    await findScreenTitle('Error Loading Poll')
    expect(screen.getByText('Try again soon.')).toBeInTheDocument()
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try Again' }))
    await findScreenTitle('Deep dive for December')
  })

  it.each([`/polls/7`, `/polls/7/${CODE}`])(
    'shows the not-found page, with the way home, for %s when the poll does not exist',
    async (path) => {
      const notFound = () => replyError(404, { detail: 'Poll not found', code: 'NOT_FOUND' })
      const { user, router } = renderWithProviders({
        path,
        handlers: { getPoll: notFound, getPollWithCode: notFound },
      })
      await findScreenTitle('Page Not Found')
      expect(screen.queryByText('Error Loading Poll')).toBeNull()
      await user.click(screen.getByRole('link', { name: 'Go Home' }))
      await findScreenTitle('home')
      expect(router.state.location.pathname).toBe('/home')
    },
  )

  it('starts afresh when the poll id changes', async () => {
    window.sessionStorage.setItem('podclub.poll.7.voted', '1')
    const { router } = renderWithProviders({
      path: `/polls/7/${CODE}`,
      handlers: pollHandlers(pollOf({ vote_code_valid: true })),
    })
    await findScreenTitle('Deep dive for December')
    expect(screen.getByText('You have voted. Thank you!')).toBeInTheDocument()
    await router.navigate(`/polls/8/${CODE}`)
    await waitFor(() => expect(voteButtons()).toHaveLength(3))
    expect(screen.queryByText('You have voted. Thank you!')).not.toBeInTheDocument()
  })
})

describe('#voteordie card', () => {
  it('checks the address, sends it, and hides the confirmation after 3 seconds', async () => {
    const { user, api } = renderWithProviders({
      path: '/polls/7',
      handlers: pollHandlers(pollOf(), {
        requestVoteCode: () => reply(createPollInviteResponseSchema, { data: { ok: true } }),
      }),
    })
    await findScreenTitle('Deep dive for December')
    const email = screen.getByLabelText('email')
    await user.type(email, 'not-an-address')
    await user.click(screen.getByRole('button', { name: '[ send my code ]' }))
    expect(email).toHaveAccessibleDescription('Please enter a valid email address')
    expect(api.callsTo('requestVoteCode')).toHaveLength(0)

    await user.clear(email)
    await user.type(email, 'ada@example.com')
    await user.click(screen.getByRole('button', { name: '[ send my code ]' }))
    await screen.findByText('Code sent successfully!')
    expect(api.callsTo('requestVoteCode')[0]?.body).toEqual({
      email: 'ada@example.com',
    })
    await waitFor(
      () => expect(screen.queryByText('Code sent successfully!')).not.toBeInTheDocument(),
      {
        timeout: 4000,
      },
    )
  })

  it("shows 'Failed to send invite' with the server's detail", async () => {
    const { user } = renderWithProviders({
      path: '/polls/7',
      handlers: pollHandlers(pollOf(), {
        requestVoteCode: () =>
          replyError(429, {
            detail: 'Too many attempts. Please try again in 30 minutes.',
            code: 'RATE_LIMITED',
          }),
      }),
    })
    await findScreenTitle('Deep dive for December')
    await user.type(screen.getByLabelText('email'), 'ada@example.com')
    await user.click(screen.getByRole('button', { name: '[ send my code ]' }))
    await screen.findByText('Failed to send invite', { selector: 'li *' })
    expect(queryToasts()[0]).toHaveTextContent('Too many attempts. Please try again in 30 minutes.')
    expect(screen.queryByText('Code sent successfully!')).not.toBeInTheDocument()
  })
})
