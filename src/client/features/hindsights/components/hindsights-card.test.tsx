import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { createHindsightResponseSchema, type Hindsight } from '#contract/podclub-detail'
import { AppProvider } from '#client/app/provider'
import { mockApi, reply, replyError, type MockReply } from '#client/testing/mock-api'
import { createTestQueryClient, queryToasts } from '#client/testing/render'
import { HindsightsCard } from './hindsights-card'

function renderCard(hindsights: Hindsight[], onPosted = vi.fn()) {
  render(
    <AppProvider queryClient={createTestQueryClient()}>
      <HindsightsCard podclubId={7} hindsights={hindsights} onPosted={onPosted} />
    </AppProvider>,
  )
  return { onPosted, user: userEvent.setup() }
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i + 1}`).join(' ')

describe('HindsightsCard', () => {
  it('counts out of 20 and cuts messages over 30 words with [ read more ] / [ show less ]', async () => {
    const { user } = renderCard([
      { username: 'maya.r', message: words(30) },
      { username: 'jon.b', message: `${words(40)} see https://example.com/notes` },
    ])
    expect(screen.getByRole('heading', { name: 'hindsights (2 / 20)' })).toBeVisible()
    const list = screen.getByRole('region', { name: 'hindsights list' })
    const [short, long] = within(list).getAllByRole('listitem')
    expect(short).toHaveTextContent('word30')
    expect(within(short!).queryByRole('button')).toBeNull()
    expect(long).toHaveTextContent('jon.b')
    expect(long).toHaveTextContent('word30…')
    expect(long).not.toHaveTextContent('word31')
    await user.click(within(long!).getByRole('button', { name: '[ read more ]' }))
    expect(long).toHaveTextContent('word40')
    const link = within(long!).getByRole('link', { name: 'https://example.com/notes' })
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    await user.click(within(long!).getByRole('button', { name: '[ show less ]' }))
    expect(long).not.toHaveTextContent('word31')
  })

  it('disables the button while the post is on its way', async () => {
    let release: (r: MockReply) => void = () => {}
    mockApi({
      submitHindsight: () =>
        new Promise<MockReply>((resolve) => {
          release = resolve
        }),
    })
    const { user, onPosted } = renderCard([])
    await user.type(screen.getByLabelText('your hindsight'), 'It stayed with me.')
    await user.click(screen.getByRole('button', { name: '[ post hindsight ]' }))
    const busy = await screen.findByRole('button', { name: /posting/ })
    expect(busy).toBeDisabled()
    release(
      reply(
        createHindsightResponseSchema,
        { data: { username: 'ada', message: 'It stayed with me.' } },
        201,
      ),
    )
    await waitFor(() => expect(onPosted).toHaveBeenCalledTimes(1))
    expect(queryToasts()[0]).toHaveTextContent('Hindsight submitted successfully')
    expect(screen.getByLabelText('your hindsight')).toHaveValue('')
  })

  it("says 'Failed to submit hindsight' with the server's message and keeps the text", async () => {
    mockApi({
      submitHindsight: () =>
        replyError(409, {
          detail: 'This podclub already has 20 hindsights',
          code: 'HINDSIGHT_LIMIT',
        }),
    })
    const { user, onPosted } = renderCard([])
    await user.type(screen.getByLabelText('your hindsight'), 'Late thought.')
    await user.click(screen.getByRole('button', { name: '[ post hindsight ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Failed to submit hindsight'))
    expect(queryToasts()[0]).toHaveTextContent('This podclub already has 20 hindsights')
    expect(screen.getByLabelText('your hindsight')).toHaveValue('Late thought.')
    expect(onPosted).not.toHaveBeenCalled()
  })
})
