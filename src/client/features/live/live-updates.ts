import { apiRoutes } from 'virtual:api-routes'
import type { QueryClient } from '@tanstack/react-query'
import type { LiveEventName, LiveEvents, LivePodclub, LivePoll, LiveSeat } from '#contract/live'
import type { Podclub } from '#contract/podclubs'
import type { Poll } from '#contract/polls'
import { apiUrl } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import {
  PODCLUBS_SCOPE,
  upcomingPodclubsQueryOptions,
} from '#client/features/podclubs/api/get-upcoming-podclubs'
import { profileQueryOptions } from '#client/features/profile/api/get-profile'
import { pollQueryKey } from '#client/features/polls/api/get-poll'

/*
 * Keeps what the page shows current from the live stream (GET /events/, docs/decisions/020):
 * each event is written into the query cache, so the cards, the detail page, the poll window
 * and the profile change in place, with no request of their own.
 */

const FEED_KEY = upcomingPodclubsQueryOptions().queryKey

/** A podclub's seats, status and seat waitlist, in the feed and on its detail page. */
export function applyPodclub(queryClient: QueryClient, live: LivePodclub) {
  const feed = queryClient.getQueryData(FEED_KEY)
  if (feed) {
    const listed = feed.some((p) => p.id === live.id)
    if (live.removed || live.status !== 'upcoming') {
      if (listed)
        queryClient.setQueryData(
          FEED_KEY,
          feed.filter((p) => p.id !== live.id),
        )
    } else if (listed) {
      queryClient.setQueryData(
        FEED_KEY,
        feed.map((p): Podclub => (p.id === live.id ? { ...p, ...seatsOf(live) } : p)),
      )
    } else {
      // A podclub new to the feed: its card needs all of it.
      void queryClient.invalidateQueries({ queryKey: FEED_KEY, exact: true })
    }
    // A read of the feed under way may have begun before this change, and would put the card
    // back as it was when it lands: it is dropped and asked again, from after the change.
    if (listed && queryClient.isFetching({ queryKey: FEED_KEY, exact: true }) > 0)
      void queryClient.invalidateQueries({ queryKey: FEED_KEY, exact: true })
  }
  // The detail page lists who holds a seat with their pictures: it reads itself again, if open.
  void queryClient.invalidateQueries({
    queryKey: [PODCLUBS_SCOPE, 'detail', String(live.id)],
    exact: true,
  })
}

function seatsOf(live: LivePodclub) {
  return {
    status: live.status,
    seats_left: live.seats_left,
    waitlist_count: live.waitlist_count,
    api_registered_usernames: live.api_registered_usernames,
    seat_waitlist: live.seat_waitlist,
  }
}

/** The member's own place changed; a seat freed for them from the seat waitlist is announced. */
export function applySeat(queryClient: QueryClient, seat: LiveSeat) {
  void queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey })
  if (!seat.promoted) return
  const podclub = queryClient.getQueryData(FEED_KEY)?.find((p) => p.id === seat.podclub_id)
  toast({
    title: `You're in: a seat opened up for ${podclub ? podclub.episode_title : 'you'}`,
    description: "You're registered, see you there!",
  })
}

/** A poll's votes, in every open view of it (with or without a code). */
export function applyPoll(queryClient: QueryClient, live: LivePoll) {
  queryClient.setQueriesData<Poll>({ queryKey: pollQueryKey(String(live.id)) }, (poll) =>
    poll ? { ...poll, total_votes: live.total_votes, results: live.results } : poll,
  )
}

/** Too much was missed: every screen's data is read again (the session's is not stale). */
export function reloadAll(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'auth' })
}

const handlers: { [N in LiveEventName]: (qc: QueryClient, data: LiveEvents[N]) => void } = {
  ready: () => {},
  podclub: applyPodclub,
  seat: applySeat,
  poll: applyPoll,
  reload: reloadAll,
}

/**
 * Opens the stream and applies what it brings to the cache; returns the function that closes it.
 * The browser reconnects by itself with `Last-Event-ID`; while the stream is down, coming back
 * to the tab reads the feed, polls and profile again instead.
 */
export function connectLiveUpdates(queryClient: QueryClient): () => void {
  const source = new EventSource(apiUrl(apiRoutes.liveEvents, {}))
  const listeners = Object.entries(handlers).map(([name, handle]) => {
    const listener = (event: MessageEvent<string>) => {
      try {
        ;(handle as (qc: QueryClient, data: unknown) => void)(queryClient, JSON.parse(event.data))
      } catch {
        // An event the page cannot read changes nothing.
      }
    }
    source.addEventListener(name, listener)
    return [name, listener] as const
  })
  const catchUp = () => {
    if (source.readyState === EventSource.OPEN || document.visibilityState !== 'visible') return
    void queryClient.invalidateQueries({ queryKey: [PODCLUBS_SCOPE] })
    void queryClient.invalidateQueries({ queryKey: ['polls'] })
    void queryClient.invalidateQueries({ queryKey: profileQueryOptions().queryKey })
  }
  window.addEventListener('focus', catchUp)
  document.addEventListener('visibilitychange', catchUp)
  return () => {
    source.close()
    for (const [name, listener] of listeners) source.removeEventListener(name, listener)
    window.removeEventListener('focus', catchUp)
    document.removeEventListener('visibilitychange', catchUp)
  }
}
