import { z } from 'zod'
import { envelope } from './common'
import { defineEndpoint } from './endpoint'
import { podclubSchema } from './podclubs'

/** A podclub in the profile's lists (spec 1 §3, Profile response). */
export const profilePodclubSchema = podclubSchema.pick({
  id: true,
  status: true,
  podcast: true,
  episode_title: true,
  starts_at: true,
  pretty_date: true,
  pretty_time: true,
})
export type ProfilePodclub = z.infer<typeof profilePodclubSchema>

export const profileSchema = z.object({
  user: z.object({
    username: z.string(),
    email: z.string(),
    profile: z.object({
      /** Completed podclubs attended + completed podclubs hosted. */
      cred: z.number().int().min(0),
      city: z.string(),
      /** ISO 8601. */
      member_since: z.string(),
      /** Completed podclubs the member held a seat in. */
      completed_podclub_count: z.number().int().min(0),
      /** Completed podclubs the member hosted as podmeister. */
      completed_podmeister_count: z.number().int().min(0),
    }),
  }),
  /** Upcoming podclubs the member holds a seat in or hosts, soonest first. */
  upcoming_podclubs: z.array(profilePodclubSchema),
  /** Completed podclubs the member attended or hosted, latest first. */
  past_podclubs: z.array(profilePodclubSchema),
  /**
   * The member's secret calendar feed (`APP_URL/calendar/<token>.ics`) listing their upcoming
   * podclubs; anyone holding it can read that list, so 'reset link' replaces it.
   */
  calendar_url: z.string(),
})
export type Profile = z.infer<typeof profileSchema>
export const getProfileResponseSchema = envelope(profileSchema)

/** `POST /profile/calendar_link/` makes a new calendar feed URL; the old one stops working. */
export const resetCalendarLinkResponseSchema = envelope(z.object({ calendar_url: z.string() }))

export const getProfileEndpoint = defineEndpoint({
  method: 'GET',
  path: '/profile/',
  access: 'member',
  tags: ['profile'],
  response: { 200: getProfileResponseSchema },
})

export const resetCalendarLinkEndpoint = defineEndpoint({
  method: 'POST',
  path: '/profile/calendar_link/',
  access: 'member',
  tags: ['calendar'],
  summary: 'A new secret calendar feed URL; the old one stops working',
  response: { 200: resetCalendarLinkResponseSchema },
})

/**
 * A member's secret calendar feed, `/calendar/<token>.ics`, that calendar apps subscribe to:
 * outside the API (no session, no CSRF token), the secret URL is the proof. Anything but a
 * member's current token is a 404.
 */
export const calendarFeedEndpoint = defineEndpoint({
  method: 'GET',
  path: '/calendar/:file',
  access: 'public',
  secretParams: ['file'],
  outsideApi: true,
})
