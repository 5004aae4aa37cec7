import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { getPublicConfigResponseSchema } from '#contract/config'
import type { Podclub } from '#contract/podclubs'
import { mockApi, reply } from '#client/testing/mock-api'
import { createTestQueryClient, testPublicConfig } from '#client/testing/render'
import { podclubFixture } from '../testing'
import { PodclubCard } from './podclub-card'

function renderCard(podclub: Podclub, username: string | null) {
  mockApi({
    getPublicConfig: () => reply(getPublicConfigResponseSchema, { data: testPublicConfig }),
  })
  const router = createMemoryRouter(
    [{ path: '*', element: <PodclubCard podclub={podclub} username={username} /> }],
    { initialEntries: ['/home'] },
  )
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
  return { card: screen.getByRole('article') }
}

const LONG = Array.from({ length: 45 }, (_, i) => `word${i + 1}`).join(' ')

describe('PodclubCard', () => {
  it('shows the podclub: title, podcast, date, time, Online by default, seats, links, badges', () => {
    const { card } = renderCard(podclubFixture({ seats_left: 1 }), null)
    expect(within(card).getByRole('heading', { name: /The Invention of Boredom/ })).toBeVisible()
    expect(card).toHaveTextContent('Hidden Brain')
    expect(card).toHaveTextContent('Monday, March 1, 2027')
    expect(card).toHaveTextContent('7:00 PM EST')
    expect(card).toHaveTextContent('Online')
    expect(card).toHaveTextContent('1 seat left')
    expect(card).toHaveTextContent('— host.one, podmeister')
    const listen = within(within(card).getByRole('list', { name: 'Listen' }))
    const links = listen.getAllByRole('link')
    // The invalid third URL gives no link; the external one is labelled with its host.
    expect(links).toHaveLength(2)
    expect(listen.getByRole('link', { name: 'YouTube' })).toBe(links[0])
    expect(listen.getByRole('link', { name: 'example.org' })).toBe(links[1])
    for (const a of links) expect(a).toHaveAttribute('rel', 'noopener noreferrer')
    const badges = within(within(card).getByRole('list', { name: 'Keywords' })).getAllByRole(
      'listitem',
    )
    expect(badges.map((b) => b.textContent)).toEqual(['attention', 'cities'])
  })

  it('sends a visitor to log in, and back to the feed afterwards', () => {
    const { card } = renderCard(podclubFixture(), null)
    expect(within(card).getByRole('link', { name: '[ login to register ]' })).toHaveAttribute(
      'href',
      '/login?next=%2Fhome',
    )
    expect(within(card).queryByRole('button', { name: /register/ })).toBeNull()
  })

  it('holds the seat action: a member can register', () => {
    expect(
      within(renderCard(podclubFixture(), 'ada').card).getByRole('button', {
        name: '[ register ]',
      }),
    ).toBeEnabled()
  })

  it('cuts the description at 30 words with Read more and Show less', async () => {
    const { card } = renderCard(podclubFixture({ description: LONG, podmeister_note: '' }), null)
    expect(card).toHaveTextContent('word30…')
    expect(card).not.toHaveTextContent('word31')
    await userEvent.click(within(card).getByRole('button', { name: 'Read more' }))
    expect(card).toHaveTextContent('word45')
    await userEvent.click(within(card).getByRole('button', { name: 'Show less' }))
    expect(card).not.toHaveTextContent('word31')
  })
})
