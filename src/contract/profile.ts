import { z } from 'zod'
import { createLoginBodySchema } from './auth'
import { envelope, okSchema } from './common'
import { defineEndpoint } from './endpoint'
import { podclubSchema } from './podclubs'

/** A podclub in the profile's lists (spec 1 §3, Profile response). */
export const profilePodclubSchema = podclubSchema
  .pick({
    id: true,
    status: true,
    podcast: true,
    episode_title: true,
    starts_at: true,
    pretty_date: true,
    pretty_time: true,
  })
  .extend({
    /** How the member takes part: hosting it, or holding a seat (the counts go by this). */
    role: z.enum(['podmeister', 'attendee']),
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

/**
 * How a member who deleted their account is named wherever what they wrote or took part in
 * stays (hindsights, past podclubs): the account keeps no username (docs/decisions/019).
 */
export const FORMER_MEMBER_NAME = 'a former member'

const isoDate = z.string()
const nullableIsoDate = z.string().nullable()

/**
 * 'download my data': what podclub keeps about the member, as a JSON file. Their own words and
 * records only: nobody else's name or address, and no secret (password hash, session, calendar
 * link, codes, the bodies of e-mails, which carry links that log in or vote).
 */
export const myDataSchema = z.object({
  exported_at: isoDate,
  account: z.object({
    username: z.string(),
    email: z.string(),
    city: z.string(),
    /** How they found podclub, as told at sign-up. */
    source: z.string(),
    member_since: isoDate,
    email_confirmed_at: nullableIsoDate,
    is_superuser: z.boolean(),
    blasts_unsubscribed_at: nullableIsoDate,
  }),
  /** Seats held, in any podclub, and when they were taken. */
  seats: z.array(
    z.object({
      podclub_id: z.number().int(),
      episode_title: z.string(),
      podcast: z.string(),
      starts_at: isoDate,
      status: z.string(),
      taken_at: isoDate,
    }),
  ),
  /** Places on the seat waitlist of full podclubs. */
  seat_waitlist: z.array(
    z.object({
      podclub_id: z.number().int(),
      episode_title: z.string(),
      starts_at: isoDate,
      joined_at: isoDate,
    }),
  ),
  /** The podclubs they host as podmeister: what they proposed. */
  podclubs_hosted: z.array(
    z.object({
      podclub_id: z.number().int(),
      episode_title: z.string(),
      episode_number: z.string(),
      podcast: z.string(),
      starts_at: isoDate,
      location: z.string().nullable(),
      status: z.string(),
      keywords: z.array(z.string()),
      links: z.array(z.string()),
      description: z.string(),
      podmeister_note: z.string(),
      proposed_at: isoDate,
    }),
  ),
  hindsights: z.array(
    z.object({
      podclub_id: z.number().int(),
      episode_title: z.string(),
      message: z.string(),
      written_at: isoDate,
    }),
  ),
  /** Votes cast with a code mailed to their address. */
  votes: z.array(
    z.object({
      poll_id: z.number().int(),
      poll_title: z.string(),
      option: z.string(),
      voted_at: isoDate,
    }),
  ),
  suggestions: z.array(
    z.object({ podcast_link: z.string(), reason: z.string(), sent_at: isoDate }),
  ),
  feedback: z.array(
    z.object({ podcast_link: z.string(), description: z.string(), sent_at: isoDate }),
  ),
  /** E-mails podclub sent or is sending to their address: what about and when, never the body. */
  emails: z.array(
    z.object({
      subject: z.string(),
      status: z.enum(['pending', 'sending', 'delivered', 'failed']),
      queued_at: isoDate,
      delivered_at: nullableIsoDate,
    }),
  ),
})
export type MyData = z.infer<typeof myDataSchema>

export const getMyDataEndpoint = defineEndpoint({
  method: 'GET',
  path: '/profile/data/',
  access: 'member',
  tags: ['profile'],
  summary: "The member's own data, for 'download my data'",
  response: { 200: envelope(myDataSchema) },
})

/** The password again, checked as a login checks it. */
export const deleteAccountBodySchema = createLoginBodySchema.pick({ password: true })
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>

export const WRONG_PASSWORD_MESSAGE = 'Incorrect password.'
export const LAST_SUPERUSER_MESSAGE =
  'You are the only super user: make another member a super user (npm run admin -- promote <username>) before deleting your account.'

export const deleteAccountEndpoint = defineEndpoint({
  method: 'POST',
  path: '/profile/delete/',
  access: 'member',
  tags: ['profile'],
  summary:
    'Deletes the account: ends its sessions, gives back its seats, cancels the podclubs it hosts that have not happened, and anonymises it',
  body: deleteAccountBodySchema,
  response: { 200: okSchema },
})
