import { z } from 'zod'
import { envelope, idSchema } from './common'
import { defineEndpoint } from './endpoint'

/** The 9 reservable seats of every podclub; the podmeister takes none of them. */
export const SEATS_PER_PODCLUB = 9

export const podclubStatusSchema = z.enum(['upcoming', 'completed', 'cancelled'])
export type PodclubStatus = z.infer<typeof podclubStatusSchema>

export const podclubLocationSchema = z.enum(['zoom', 'nyc'])
export type PodclubLocation = z.infer<typeof podclubLocationSchema>

export const podcastRefSchema = z.object({ name: z.string(), picture_link: z.string() })

/**
 * A podclub as the feed and its cards read it (spec 1 §3). `starts_at` (ISO 8601, UTC) lets the
 * page show the viewer's own time beside the Eastern `pretty_date` / `pretty_time`.
 */
export const podclubSchema = z.object({
  id: z.number().int(),
  status: podclubStatusSchema,
  episode_title: z.string(),
  episode_number: z.string(),
  description: z.string(),
  podmeister_note: z.string(),
  podmeister: z.object({ username: z.string() }),
  starts_at: z.string(),
  pretty_date: z.string(),
  pretty_time: z.string(),
  location: podclubLocationSchema.nullable(),
  seats_left: z.number().int().min(0).max(SEATS_PER_PODCLUB),
  keyword_one: z.string(),
  keyword_two: z.string(),
  keyword_three: z.string(),
  link_one: z.string(),
  link_two: z.string(),
  link_three: z.string(),
  podcast: podcastRefSchema,
  /** Members holding a seat, in the order they took it. */
  api_registered_usernames: z.object({ reserved: z.array(z.string()) }),
  /** How many members wait on the seat waitlist for a freed seat. */
  waitlist_count: z.number().int().min(0),
  /**
   * Who waits on the seat waitlist, first in line first: the same list for every viewer, so the
   * page works out a member's place (`#2 on the waitlist`) as it works out 'registered'.
   */
  seat_waitlist: z.object({ waiting: z.array(z.string()) }),
})
export type Podclub = z.infer<typeof podclubSchema>

export const podclubIdParamsSchema = z.object({ podclubId: idSchema })
export const listPodclubsResponseSchema = envelope(z.array(podclubSchema))

/** `POST /register/:podclubId/` toggles a seat and answers the new state (CONTRACT.md). */
export const registrationStateSchema = z.object({
  registered: z.boolean(),
  seats_left: z.number().int().min(0).max(SEATS_PER_PODCLUB),
})
export type RegistrationState = z.infer<typeof registrationStateSchema>
export const registrationStateResponseSchema = envelope(registrationStateSchema)

/** `POST /podclubs/:podclubId/seat_waitlist/` joins or leaves a full podclub's seat waitlist. */
export const seatWaitlistStateSchema = z.object({
  waitlisted: z.boolean(),
  /** The member's place in line, 1 for the next freed seat; null when not waiting. */
  position: z.number().int().min(1).nullable(),
})
export type SeatWaitlistState = z.infer<typeof seatWaitlistStateSchema>
export const seatWaitlistStateResponseSchema = envelope(seatWaitlistStateSchema)

export { IDEMPOTENCY_KEY_HEADER } from './endpoint'

/**
 * The `Idempotency-Key` header (IDEMPOTENCY_KEY_HEADER) the seat and seat-waitlist toggles
 * accept: a retry that sends the key of an earlier request (the same member, the same call) gets
 * that request's answer again instead of toggling back. The page sends a new key for each click,
 * and the same one when it retries that click. Other headers pass through untouched.
 */
export const idempotentWriteHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{1,100}$/,
      'Idempotency-Key must be 1 to 100 letters, digits, hyphens or underscores.',
    )
    .optional(),
})

/** The splash's community numbers (spec 1 §3 'Splash stats'; counted as CONTRACT.md says). */
export const splashStatsSchema = z.object({
  member_count: z.number().int().min(0),
  completed_podclub_count: z.number().int().min(0),
  cities_count: z.number().int().min(0),
})
export type SplashStats = z.infer<typeof splashStatsSchema>
export const getSplashResponseSchema = envelope(splashStatsSchema)

/** A completed podclub as the archive card shows it (spec 1 §3 'Past podclub'). */
export const pastPodclubSchema = z.object({
  id: z.number().int(),
  episode_title: z.string(),
  episode_number: z.string(),
  description: z.string(),
  podcast: podcastRefSchema,
  keyword_one: z.string(),
  keyword_two: z.string(),
  keyword_three: z.string(),
  link_one: z.string(),
  link_two: z.string(),
  link_three: z.string(),
  /** Members who held a seat, plus the podmeister. */
  participant_count: z.number().int().min(0),
  /** The day it took place, in New York ('Thursday, December 17, 2026'). */
  discussion_date: z.string(),
})
export type PastPodclub = z.infer<typeof pastPodclubSchema>
export const listPastPodclubsResponseSchema = envelope(z.array(pastPodclubSchema))
/** `null` while the club has no completed podclub yet. */
export const getRandomPastPodclubResponseSchema = envelope(pastPodclubSchema.nullable())

// The calls.

const tags = ['podclubs']

export const listUpcomingPodclubsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/all_upcoming_podclubs/',
  access: 'public',
  tags,
  summary: 'Every upcoming podclub, soonest first: the home feed',
  response: { 200: listPodclubsResponseSchema },
})

export const listPodclubsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/podclubs/',
  access: 'public',
  tags,
  summary: 'Upcoming and completed podclubs, latest first',
  response: { 200: listPodclubsResponseSchema },
})

export const listMyUpcomingPodclubsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/my_upcoming_podclubs/',
  access: 'member',
  tags,
  summary: "The caller's upcoming podclubs: seats held and podclubs hosted, soonest first",
  response: { 200: listPodclubsResponseSchema },
})

export const listPastPodclubsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/past_podclubs/',
  access: 'public',
  tags,
  summary: 'Completed podclubs, latest first',
  response: { 200: listPastPodclubsResponseSchema },
})

export const getRandomPastPodclubEndpoint = defineEndpoint({
  method: 'GET',
  path: '/past_podclubs/random/',
  access: 'public',
  tags,
  summary: 'One completed podclub at random, for the archive card (null before the first)',
  response: { 200: getRandomPastPodclubResponseSchema },
})

export const getSplashStatsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/splash/',
  access: 'public',
  tags: ['splash'],
  summary: 'Members, podclubs discussed and cities represented',
  response: { 200: getSplashResponseSchema },
})

export const toggleRegistrationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/register/:podclubId/',
  access: 'member',
  tags: ['registrations'],
  summary: 'Take a seat, or give it back when already holding one',
  params: podclubIdParamsSchema,
  headers: idempotentWriteHeadersSchema,
  response: { 200: registrationStateResponseSchema },
})

/** Not the club's invite waitlist at /waitlist/. */
export const toggleSeatWaitlistEndpoint = defineEndpoint({
  method: 'POST',
  path: '/podclubs/:podclubId/seat_waitlist/',
  access: 'member',
  tags: ['registrations'],
  summary: "Join a full podclub's seat waitlist, or leave it",
  params: podclubIdParamsSchema,
  headers: idempotentWriteHeadersSchema,
  response: { 200: seatWaitlistStateResponseSchema },
})
