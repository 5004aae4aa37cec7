import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import {
  listPodclubsResponseSchema,
  registrationStateResponseSchema,
  seatWaitlistStateResponseSchema,
  type Podclub,
} from '#contract/podclubs'
import { member } from '#client/testing/fixtures'
import { reply, replyError } from '#client/testing/mock-api'
import { queryToasts, renderWithProviders } from '#client/testing/render'
import { podclubFixture } from '../testing'

function fullPodclub(waiting: string[]): Podclub {
  return podclubFixture({
    seats_left: 0,
    waitlist_count: waiting.length,
    seat_waitlist: { waiting },
  })
}

describe('the seat waitlist on the home feed', () => {
  it('joins, says so, and shows the place once the feed reloads; then leaves', async () => {
    let podclub = fullPodclub(['bo'])
    const { api, user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
        toggleSeatWaitlist: () => {
          const isLeaving = podclub.seat_waitlist.waiting.includes(member.username)
          const waiting = isLeaving
            ? podclub.seat_waitlist.waiting.filter((u) => u !== member.username)
            : [...podclub.seat_waitlist.waiting, member.username]
          podclub = { ...podclub, waitlist_count: waiting.length, seat_waitlist: { waiting } }
          return reply(seatWaitlistStateResponseSchema, {
            data: isLeaving
              ? { waitlisted: false, position: null }
              : { waitlisted: true, position: waiting.length },
          })
        },
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    expect(card).toHaveTextContent('1 on the seat waitlist.')
    await user.click(within(card).getByRole('button', { name: '[ join waitlist ]' }))
    expect(await within(card).findByText('#2 on the seat waitlist.')).toBeVisible()
    expect(queryToasts()[0]).toHaveTextContent('Joined the seat waitlist')
    expect(queryToasts()[0]).toHaveTextContent("You're #2 in line for a freed seat.")
    expect(api.callsTo('toggleSeatWaitlist')[0]?.path).toBe(
      `/podclubs/${podclub.id}/seat_waitlist/`,
    )

    await user.click(within(card).getByRole('button', { name: '[ leave waitlist ]' }))
    expect(await within(card).findByRole('button', { name: '[ join waitlist ]' })).toBeEnabled()
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Left the seat waitlist'))
    expect(card).toHaveTextContent('1 on the seat waitlist.')
  })

  it('keeps the button busy while the call is on its way', async () => {
    let answer: (value: ReturnType<typeof reply>) => void = () => {}
    const podclub = fullPodclub([])
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
        toggleSeatWaitlist: () =>
          new Promise((resolve) => {
            answer = resolve
          }),
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    const join = within(card).getByRole('button', { name: '[ join waitlist ]' })
    await user.click(join)
    await waitFor(() => expect(join).toBeDisabled())
    expect(join).toHaveAttribute('aria-busy', 'true')
    answer(reply(seatWaitlistStateResponseSchema, { data: { waitlisted: true, position: 1 } }))
    await waitFor(() => expect(join).toBeEnabled())
  })

  it("shows the server's reason when joining is refused", async () => {
    const podclub = fullPodclub([])
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
        toggleSeatWaitlist: () =>
          replyError(409, {
            detail: 'A seat is free: register for it instead of joining the seat waitlist.',
          }),
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    await user.click(within(card).getByRole('button', { name: '[ join waitlist ]' }))
    await waitFor(() =>
      expect(queryToasts()[0]).toHaveTextContent('Failed to join the seat waitlist'),
    )
    expect(queryToasts()[0]).toHaveTextContent(
      'A seat is free: register for it instead of joining the seat waitlist.',
    )
  })

  it("says leaving failed when a waiting member's leave is refused", async () => {
    const podclub = fullPodclub([member.username])
    const { user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
        toggleSeatWaitlist: () => replyError(409, { detail: 'This podclub has already started.' }),
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    await user.click(within(card).getByRole('button', { name: '[ leave waitlist ]' }))
    await waitFor(() =>
      expect(queryToasts()[0]).toHaveTextContent('Failed to leave the seat waitlist'),
    )
    expect(queryToasts()[0]).toHaveTextContent('This podclub has already started.')
  })
})

describe('seat clicks and their Idempotency-Key', () => {
  it('sends a new key per click, and the same key again when a click gets no answer', async () => {
    let podclub = podclubFixture({ seats_left: 5 })
    let calls = 0
    const { api, user } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
        toggleRegistration: () => {
          calls += 1
          // The first try of the first click is lost on its way back; then the server answers.
          if (calls === 1) return { kind: 'network-error' }
          const registered = !podclub.api_registered_usernames.reserved.includes(member.username)
          podclub = {
            ...podclub,
            seats_left: registered ? 4 : 5,
            api_registered_usernames: { reserved: registered ? [member.username] : [] },
          }
          return reply(registrationStateResponseSchema, {
            data: { registered, seats_left: podclub.seats_left },
          })
        },
      },
    })
    const card = await screen.findByRole('article', { name: podclub.episode_title })
    await user.click(within(card).getByRole('button', { name: '[ register ]' }))
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Successfully registered'), {
      timeout: 5_000,
    })
    await user.click(await within(card).findByRole('button', { name: '[ cancel ]' }))
    await waitFor(() => expect(calls).toBe(3))

    const keys = api.callsTo('toggleRegistration').map((c) => c.headers.get('Idempotency-Key'))
    expect(keys).toHaveLength(3)
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/)
    // The retry of the first click carried its key; the second click a new one.
    expect(keys[1]).toBe(keys[0])
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[2]).not.toBe(keys[0])
  })
})
