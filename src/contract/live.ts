import type { Podclub } from './podclubs'
import type { Poll } from './polls'
import { defineEndpoint } from './endpoint'

/*
 * The live stream (docs/decisions/020): server-sent events that keep open pages current. Each
 * event carries only what the page already shows its reader. The page reads these types only,
 * so its first load carries no schema for them.
 */

/**
 * A podclub's seats as the feed shows them to everyone (`Podclub` fields); `removed` when it is
 * gone from the club.
 */
export type LivePodclub = Pick<
  Podclub,
  'id' | 'status' | 'seats_left' | 'waitlist_count' | 'api_registered_usernames' | 'seat_waitlist'
> & { removed?: true }

/** A member's own place in a podclub, sent to that member alone when it changed. */
export type LiveSeat = {
  podclub_id: number
  registered: boolean
  /** 1 for the next freed seat; null when not waiting. */
  waitlist_position: number | null
  /** A freed seat went to them from the seat waitlist. */
  promoted: boolean
}

/** A poll's standing, as the poll window shows it to everyone. */
export type LivePoll = Pick<Poll, 'id' | 'total_votes' | 'results'>

/** What each named event's `data` holds (JSON). */
export type LiveEvents = {
  /** The first event of a stream: its `id` is where a reconnect starts from. */
  ready: Record<string, never>
  podclub: LivePodclub
  seat: LiveSeat
  poll: LivePoll
  /** Too much was missed to replay (or the stream could not tell): read everything again. */
  reload: Record<string, never>
}
export type LiveEventName = keyof LiveEvents

export const liveEventsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/events/',
  access: 'public',
  tags: ['live'],
  summary:
    'Server-sent events: seats, seat waitlists and poll votes as they change (text/event-stream)',
})
