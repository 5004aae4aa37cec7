import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { addClubCalendar, atClubTimeOfDay, formatClubDateTime } from '#contract/club-time'
import {
  createProposalResponseSchema,
  EMPTY_PROPOSAL_FORM,
  getProposalSuggestionsResponseSchema,
  type ProposalForm,
} from '#contract/proposals'
import { podclubFixture } from '#client/features/podclubs/testing'
import { member } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

const suggestions = () =>
  reply(getProposalSuggestionsResponseSchema, {
    data: { podcasts: ['Radiolab', 'Hidden Brain'], keywords: ['trust'] },
  })

afterEach(() => sessionStorage.clear())

/** Two months ahead, 14:00 in New York: inside the window whenever the test runs. */
const inTwoMonths = () =>
  formatClubDateTime(atClubTimeOfDay(addClubCalendar(new Date(), { months: 2 }), 14))

const completeDraft = (): ProposalForm => ({
  ...EMPTY_PROPOSAL_FORM,
  episode: 'The Persuaders',
  podcast: 'On the Media',
  keyword1: 'persuasion',
  keyword2: 'media',
  keyword3: 'trust',
  link1: 'https://example.com/persuaders',
  description: 'How a small team of ad makers learned to sell anything, and what it cost.',
  podmeisterNote: 'It made me notice every pitch around me for a week; let us compare notes.',
  scheduledStart: inTwoMonths(),
  location: 'nyc',
})

const saveDraft = (draft: Partial<ProposalForm>) =>
  sessionStorage.setItem('podclub:propose-draft', JSON.stringify(draft))

describe('the propose wizard', () => {
  it('checks step 1 on Next, moves the step into the URL and keeps the draft', async () => {
    const { user, router } = renderWithProviders({
      path: '/propose',
      currentUser: member,
      handlers: { getProposalSuggestions: suggestions },
    })
    await findScreenTitle('propose a podclub')
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByLabelText('episode title')).toHaveAccessibleDescription(
      'Episode title is required',
    )
    expect(screen.getByLabelText('podcast name')).toHaveAccessibleDescription(
      'Podcast name is required',
    )
    expect(screen.getByLabelText('episode title')).toHaveFocus()
    expect(router.state.location.search).toBe('')

    await user.type(screen.getByLabelText('episode title'), 'Episode')
    expect(screen.queryByText('Episode title is required')).not.toBeInTheDocument()
    await user.type(screen.getByLabelText('podcast name'), 'Radiolab')
    // The podcast list offers the suggestions.
    await waitFor(() =>
      expect(document.querySelectorAll('datalist option[value="Hidden Brain"]')).toHaveLength(1),
    )
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(router.state.location.search).toBe('?step=2')
    expect(await screen.findByRole('heading', { name: 'Add keywords and links' })).toBeVisible()
    expect(JSON.parse(sessionStorage.getItem('podclub:propose-draft') ?? '{}')).toMatchObject({
      episode: 'Episode',
      podcast: 'Radiolab',
    })
  })

  it('restores an unsent draft on the step of the URL', async () => {
    sessionStorage.setItem(
      'podclub:propose-draft',
      JSON.stringify({ description: 'kept across the reload', location: 'nyc' }),
    )
    renderWithProviders({
      path: '/propose?step=3',
      currentUser: member,
      handlers: { getProposalSuggestions: suggestions },
    })
    expect(await screen.findByLabelText('episode description')).toHaveValue(
      'kept across the reload',
    )
    expect(screen.getByText('Step 3 of 4')).toBeInTheDocument()
  })

  it("says 'Failed to load suggestions' when they cannot load", async () => {
    renderWithProviders({
      path: '/propose',
      currentUser: member,
      handlers: { getProposalSuggestions: () => replyError(500) },
    })
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to load suggestions'))
    expect(queryToasts()[0]).toHaveTextContent('Error')
  })

  it("sends the payload, says 'Success!', clears the draft and goes home", async () => {
    saveDraft(completeDraft())
    const { api, user, router } = renderWithProviders({
      path: '/propose?step=4',
      currentUser: member,
      handlers: {
        getProposalSuggestions: suggestions,
        createProposal: () =>
          reply(createProposalResponseSchema, { data: podclubFixture({ id: 99 }) }, 201),
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(queryToasts()[0]).toHaveTextContent('Success!')
    expect(queryToasts()[0]).toHaveTextContent('Your podcast episode has been submitted.')
    expect(api.callsTo('createProposal')[0]?.body).toEqual({
      title: 'The Persuaders',
      podcastName: 'On the Media',
      number: '',
      keywordOne: 'persuasion',
      keywordTwo: 'media',
      keywordThree: 'trust',
      linkOne: 'https://example.com/persuaders',
      linkTwo: '',
      linkThree: '',
      scheduledStart: inTwoMonths(),
      description: completeDraft().description,
      podmeisterNote: completeDraft().podmeisterNote,
      location: 'nyc',
    })
    expect(sessionStorage.getItem('podclub:propose-draft')).toBeNull()
  })

  it("shows 'Submission failed' with the server's message and puts field errors in place", async () => {
    saveDraft(completeDraft())
    const { user, router } = renderWithProviders({
      path: '/propose?step=4',
      currentUser: member,
      handlers: {
        getProposalSuggestions: suggestions,
        createProposal: () =>
          replyError(400, { scheduledStart: ['Date must be at least one month from today'] }),
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Submission failed'))
    expect(queryToasts()[0]).toHaveTextContent('Date must be at least one month from today')
    expect(screen.getAllByText('Date must be at least one month from today')).toHaveLength(2)
    expect(router.state.location.pathname).toBe('/propose')
    expect(sessionStorage.getItem('podclub:propose-draft')).not.toBeNull()
  })

  it("checks the whole form on Submit: 'Validation Error' and back to the first step with an error", async () => {
    saveDraft({ ...completeDraft(), keyword2: '' })
    const { api, user, router } = renderWithProviders({
      path: '/propose?step=4',
      currentUser: member,
      handlers: { getProposalSuggestions: suggestions },
    })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Validation Error'))
    expect(queryToasts()[0]).toHaveTextContent('Please check all form fields.')
    await waitFor(() => expect(router.state.location.search).toBe('?step=2'))
    expect(await screen.findByLabelText('keyword 2')).toHaveAccessibleDescription(
      'Second keyword is required',
    )
    expect(api.callsTo('createProposal')).toHaveLength(0)
  })

  it('offers half hours from a default of 14:00, Zoom or the NYC office, and the hint', async () => {
    renderWithProviders({
      path: '/propose?step=4',
      currentUser: member,
      handlers: { getProposalSuggestions: suggestions },
    })
    expect(await screen.findByRole('heading', { name: 'Schedule the discussion' })).toBeVisible()
    const time = screen.getByLabelText('time (ET)')
    expect(time).toHaveValue('14:00')
    const options = [...time.querySelectorAll('option')].map((o) => o.value)
    expect(options).toHaveLength(48)
    expect(options.every((t) => /:(00|30)$/.test(t))).toBe(true)
    expect(screen.getByRole('radio', { name: /Zoom Meeting/ })).toBeChecked()
    expect(screen.getByText('join remotely')).toBeVisible()
    expect(screen.getByText('meet in person')).toBeVisible()
    expect(screen.getByRole('radio', { name: /NYC Office/ })).not.toBeChecked()
    expect(
      screen.getByText(
        'must be at least one month from today; all times are in Eastern Time (ET).',
        { exact: false },
      ),
    ).toBeVisible()
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled()
  })
})
