import { QueryObserver } from '@tanstack/react-query'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { LivePodclub } from '#contract/live'
import {
  listPodclubsResponseSchema,
  type Podclub,
  seatWaitlistStateResponseSchema,
} from '#contract/podclubs'
import { member } from '#client/testing/fixtures'
import { reply } from '#client/testing/mock-api'
import { queryToasts, renderWithProviders } from '#client/testing/render'
import { loadToaster } from '#client/app/provider'
import { podclubFixture } from '#client/features/podclubs/testing'
import { upcomingPodclubsQueryOptions } from '#client/features/podclubs/api/get-upcoming-podclubs'
import { createQueryClient } from '#client/lib/query-client'
import { applyPodclub, applyPoll, applySeat } from './live-updates'

const liveOf = (overrides: Partial<LivePodclub> & { id: number }): LivePodclub => ({
  status: 'upcoming',
  seats_left: 9,
  waitlist_count: 0,
  api_registered_usernames: { reserved: [] },
  seat_waitlist: { waiting: [] },
  ...overrides,
})

const ninth = Array.from({ length: 9 }, (_, i) => `member${i}`)

describe('live updates on the home feed', () => {
  it('does not let a read of the feed that began before the change put the card back', async () => {
    const queryClient = createQueryClient()
    const before = podclubFixture({ seats_left: 1 })
    const after = { ...before, seats_left: 0 }
    // What the server answers: the first two reads began before the change, the third after.
    let reads = 0
    let answerSecond!: (list: Podclub[]) => void
    const observer = new QueryObserver(queryClient, {
      queryKey: upcomingPodclubsQueryOptions().queryKey,
      queryFn: (): Promise<Podclub[]> => {
        reads += 1
        if (reads === 1) return Promise.resolve([before])
        if (reads === 2) return new Promise((resolve) => (answerSecond = resolve))
        return Promise.resolve([after])
      },
    })
    const seatsLeft = () => observer.getCurrentResult().data?.[0]?.seats_left
    const stop = observer.subscribe(() => {})
    try {
      await waitFor(() => expect(seatsLeft()).toBe(1))
      void observer.refetch()
      applyPodclub(queryClient, liveOf({ id: before.id, seats_left: 0 }))
      expect(seatsLeft()).toBe(0)
      answerSecond([before])
      await waitFor(() => expect(reads).toBe(3))
      await waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false))
      expect(seatsLeft()).toBe(0)
    } finally {
      stop()
    }
  })

  it('turns a card full when its last seat goes elsewhere, without asking the server again', async () => {
    const podclub = podclubFixture({
      seats_left: 1,
      api_registered_usernames: { reserved: ninth.slice(0, 8) },
    })
    let feedReads = 0
    const { queryClient } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => {
          feedReads += 1
          return reply(listPodclubsResponseSchema, { data: [podclub] })
        },
      },
    })
    const card = await screen.findByRole('article', { name: new RegExp(podclub.episode_title) })
    expect(within(card).getByRole('button', { name: '[ register ]' })).toBeEnabled()

    act(() =>
      applyPodclub(
        queryClient,
        liveOf({ id: podclub.id, seats_left: 0, api_registered_usernames: { reserved: ninth } }),
      ),
    )
    // The query cache tells the screen on its next tick.
    expect(
      await within(card).findByRole('button', { name: '[ registration full ]' }),
    ).toBeDisabled()
    expect(within(card).getByRole('button', { name: '[ join waitlist ]' })).toBeEnabled()
    expect(feedReads).toBe(1)
  })

  it("shows a member promoted from the seat waitlist that they're registered, and says so", async () => {
    await loadToaster()
    const podclub = podclubFixture({
      seats_left: 0,
      api_registered_usernames: { reserved: ninth },
      waitlist_count: 1,
      seat_waitlist: { waiting: [member.username] },
    })
    const { queryClient } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [podclub] }),
      },
    })
    const card = await screen.findByRole('article', { name: new RegExp(podclub.episode_title) })
    expect(card).toHaveTextContent('#1 on the seat waitlist')

    act(() => {
      applyPodclub(
        queryClient,
        liveOf({
          id: podclub.id,
          seats_left: 0,
          api_registered_usernames: { reserved: [...ninth.slice(1), member.username] },
        }),
      )
      applySeat(queryClient, {
        podclub_id: podclub.id,
        registered: true,
        waitlist_position: null,
        promoted: true,
      })
    })
    await waitFor(() => expect(card).toHaveTextContent("You're registered, see you there!"))
    await waitFor(() => expect(queryToasts()).toHaveLength(1))
    expect(queryToasts()[0]).toHaveTextContent(
      `You're in: a seat opened up for ${podclub.episode_title}`,
    )
  })

  it("keeps 'You're in' over the answer to joining the line, when the seat comes first", async () => {
    await loadToaster()
    const podclub = podclubFixture({
      seats_left: 0,
      api_registered_usernames: { reserved: ninth },
    })
    const promoted = {
      ...podclub,
      api_registered_usernames: { reserved: [...ninth.slice(1), member.username] },
    }
    // The feed's read after the member joined is slow; the seat comes live meanwhile.
    let feedReads = 0
    let answerRead!: () => void
    const { queryClient } = renderWithProviders({
      path: '/home',
      currentUser: member,
      handlers: {
        listUpcomingPodclubs: async () => {
          feedReads += 1
          if (feedReads === 1) return reply(listPodclubsResponseSchema, { data: [podclub] })
          await new Promise<void>((resolve) => (answerRead = resolve))
          return reply(listPodclubsResponseSchema, { data: [promoted] })
        },
        toggleSeatWaitlist: () =>
          reply(seatWaitlistStateResponseSchema, { data: { waitlisted: true, position: 1 } }),
      },
    })
    const card = await screen.findByRole('article', { name: new RegExp(podclub.episode_title) })
    await userEvent.click(within(card).getByRole('button', { name: '[ join waitlist ]' }))
    // Said when the server answers, while the feed reads itself again.
    await waitFor(() => expect(queryToasts()[0]).toHaveTextContent('Joined the seat waitlist'))
    expect(feedReads).toBe(2)

    act(() => {
      applyPodclub(queryClient, liveOf({ ...promoted, seats_left: 0 }))
      applySeat(queryClient, {
        podclub_id: podclub.id,
        registered: true,
        waitlist_position: null,
        promoted: true,
      })
    })
    await waitFor(() =>
      expect(queryToasts()[0]).toHaveTextContent(
        `You're in: a seat opened up for ${podclub.episode_title}`,
      ),
    )
    answerRead()
    await waitFor(() => expect(queryClient.isFetching()).toBe(0))
    await waitFor(() => expect(card).toHaveTextContent("You're registered, see you there!"))
    expect(queryToasts()).toHaveLength(1)
    expect(queryToasts()[0]).toHaveTextContent("You're in: a seat opened up for")
  })

  it('takes a cancelled podclub off the feed', async () => {
    const [gone, stays] = [podclubFixture(), podclubFixture()]
    const { queryClient } = renderWithProviders({
      path: '/home',
      handlers: {
        listUpcomingPodclubs: () => reply(listPodclubsResponseSchema, { data: [gone, stays] }),
      },
    })
    await screen.findByRole('article', { name: new RegExp(gone.episode_title) })
    act(() => applyPodclub(queryClient, liveOf({ id: gone.id, status: 'cancelled' })))
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: new RegExp(gone.episode_title) })).toBeNull(),
    )
    expect(screen.getByRole('article', { name: new RegExp(stays.episode_title) })).toBeVisible()
  })
})

describe('live updates of a poll', () => {
  it('writes the counted votes into every open view of the poll, with or without a code', () => {
    const queryClient = createQueryClient()
    const poll = {
      id: 4,
      total_votes: 0,
      results: [
        { id: 1, title: 'A', podcast: '', description: '', link: '', votes: 0, percentage: 0 },
        { id: 2, title: 'B', podcast: '', description: '', link: '', votes: 0, percentage: 0 },
      ],
    }
    queryClient.setQueryData(['polls', '4', null], poll)
    queryClient.setQueryData(['polls', '4', 'CODE'], poll)
    queryClient.setQueryData(['polls', '5', null], poll)
    const results = [
      { ...poll.results[1]!, votes: 1, percentage: 100 },
      { ...poll.results[0]!, votes: 0, percentage: 0 },
    ]
    applyPoll(queryClient, { id: 4, total_votes: 1, results })
    for (const code of [null, 'CODE']) {
      expect(queryClient.getQueryData(['polls', '4', code])).toMatchObject({
        total_votes: 1,
        results,
      })
    }
    expect(queryClient.getQueryData(['polls', '5', null])).toMatchObject({ total_votes: 0 })
  })
})
