import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { getProposalSuggestionsResponseSchema } from '#contract/proposals'
import { member } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { findScreenTitle, queryToasts, renderWithProviders } from '#client/testing/render'

const suggestions = () =>
  reply(getProposalSuggestionsResponseSchema, {
    data: { podcasts: ['Radiolab', 'Hidden Brain'], keywords: ['trust'] },
  })

afterEach(() => sessionStorage.clear())

describe('the propose wizard', () => {
  it('checks step 1 on Next, moves the step into the URL and keeps the draft', async () => {
    const { user, router } = renderWithProviders({
      path: '/propose',
      currentUser: member,
      handlers: { 'GET /podcasts/': suggestions },
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
      handlers: { 'GET /podcasts/': suggestions },
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
      handlers: { 'GET /podcasts/': () => replyError(500) },
    })
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to load suggestions'))
    expect(queryToasts()[0]).toHaveTextContent('Error')
  })
})
