import { z } from 'zod'
import { prettyDate, prettyTime, startsWhen } from './club-time'
import { clubDateTimeSchema } from './club-time-schema'
import { envelope, idSchema, textSchema } from './common'
import { defineEndpoint } from './endpoint'
import { jobResponseSchema } from './jobs'
import {
  podclubLocationSchema,
  podclubStatusSchema,
  registrationStateResponseSchema,
} from './podclubs'
import { createProposalBodySchema, createProposalResponseSchema } from './proposals'

/** A podclub id typed into an operator form ('podclub ID 1'): a positive whole number. */
const podclubIdField = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a podclub ID number` })
    .int(`${label} must be a podclub ID number`)
    .positive(`${label} must be a podclub ID number`)
    .max(2_147_483_647, `${label} must be a podclub ID number`)

export const controlPanelPodclubSchema = z.object({
  id: z.number().int(),
  episode_title: z.string(),
  location: podclubLocationSchema.nullable(),
  podmeister: z.string(),
  starts_at: z.string(),
  pretty_date: z.string(),
  pretty_time: z.string(),
  status: podclubStatusSchema,
  zoom_link: z.string(),
  seats_left: z.number().int(),
  one_week_notice_sent: z.boolean(),
  one_day_notice_sent: z.boolean(),
  ten_min_notice_sent: z.boolean(),
  /** When an operator last sent its notice by hand ('Send Notice'), or null. */
  notice_sent_at: z.string().nullable(),
})
export type ControlPanelPodclub = z.infer<typeof controlPanelPodclubSchema>

export const emailRecordSchema = z.object({
  date_created: z.string(),
  email: z.string(),
  subject: z.string(),
  success: z.boolean(),
})
export const welcomeCodeSchema = z.object({ code: z.string(), active: z.boolean() })
export const controlPanelUserSchema = z.object({ username: z.string(), email: z.string() })

export const controlPanelSchema = z.object({
  /** The upcoming podclubs, soonest first. */
  all_podclubs: z.array(controlPanelPodclubSchema),
  /** The latest completed podclubs, the last completed first (at most 20). */
  recently_completed: z.array(controlPanelPodclubSchema),
  email_tracker: z.array(emailRecordSchema),
  welcome_codes: z.array(welcomeCodeSchema),
  users_this_month: z.array(controlPanelUserSchema),
  waitlist: z.array(
    z.object({
      email: z.string(),
      how: z.string(),
      favorite_podcast: z.string(),
      date_created: z.string(),
    }),
  ),
  suggestions: z.array(
    z.object({
      username: z.string().nullable(),
      podcast_link: z.string(),
      reason: z.string(),
      date_created: z.string(),
    }),
  ),
  feedback: z.array(
    z.object({
      username: z.string().nullable(),
      podcast_link: z.string(),
      description: z.string(),
      date_created: z.string(),
    }),
  ),
})
export type ControlPanel = z.infer<typeof controlPanelSchema>
export const controlPanelResponseSchema = envelope(controlPanelSchema)

export const noticeTypeSchema = z.enum(['min', 'complete'], {
  error: "notice_type must be 'min' or 'complete'",
})
export const createTriggerBodySchema = z.object({
  podclub_pk: podclubIdField('podclub_pk'),
  notice_type: noticeTypeSchema,
  /** The operator has read what a notice sent far ahead of the start does, and sends it. */
  confirm: z.boolean().optional(),
})

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** The reminders of a podclub, farthest first: each is due `before` ahead of the start. */
export const REMINDERS = [
  { kind: '1w', name: '1-week', before: 7 * DAY },
  { kind: '1d', name: '1-day', before: DAY },
  { kind: '10m', name: '10-minute', before: 10 * MINUTE },
] as const

/** The operator's notice asks for confirmation when the start is more than this far away. */
export const NOTICE_CONFIRM_BEYOND_MS = 60 * MINUTE

export function noticeNeedsConfirm(startsAt: Date, now: Date): boolean {
  return startsAt.getTime() - now.getTime() > NOTICE_CONFIRM_BEYOND_MS
}

/**
 * What the operator's notice sends if sent at `now`, in words: the server refuses an unconfirmed
 * notice with it, and the panel's confirmation asks with it.
 */
export function noticeSummary(
  podclub: { startsAt: Date; location: 'zoom' | 'nyc' | null },
  now: Date,
): string {
  const { startsAt } = podclub
  const when = startsWhen(startsAt, now)
  const ahead = startsAt.getTime() - now.getTime()
  const what = podclub.location === 'nyc' ? 'the office address' : 'the Zoom link'
  const still = REMINDERS.filter((r) => r.before < ahead).map((r) => r.name)
  const later =
    still.length === 0
      ? ''
      : ` The ${still.length === 1 ? still[0] : `${still.slice(0, -1).join(', ')} and ${still.at(-1)}`} reminder${still.length === 1 ? ' still goes' : 's still go'} out on time.`
  return `It starts ${when} (${prettyDate(startsAt)} at ${prettyTime(startsAt)}). Sending the notice now e-mails its podmeister and attendees ${what} and says it starts ${when}.${later}`
}
export const triggerResponseSchema = envelope(controlPanelPodclubSchema)

/** The three podclubs of a blast, all different. */
export const createBlastBodySchema = z
  .object({
    podclub_1: podclubIdField('podclub ID 1'),
    podclub_2: podclubIdField('podclub ID 2'),
    podclub_3: podclubIdField('podclub ID 3'),
  })
  .refine((b) => new Set([b.podclub_1, b.podclub_2, b.podclub_3]).size === 3, {
    message: 'Choose three different podclubs',
    path: ['non_field_errors'],
  })
export type CreateBlastBody = z.infer<typeof createBlastBodySchema>
export const blastResponseSchema = envelope(z.object({ queued: z.number().int() }))
/** What a finished monthly blast job reports (its `result`): the e-mails it queued. */
export const monthlyBlastResultSchema = z.object({ queued: z.number().int().min(0) })
export type MonthlyBlastResult = z.infer<typeof monthlyBlastResultSchema>

/**
 * A podclub's Zoom link, or empty for the club's default: a web address only. It becomes a link
 * in e-mails and on the page, where a `javascript:` or `data:` address would run or show
 * whatever it holds.
 */
const zoomLinkSchema = z.union([
  z.literal(''),
  textSchema()
    .trim()
    .max(500)
    .url({ protocol: /^https?$/, error: 'Please enter a valid URL' }),
])

export const updatePodclubBodySchema = z
  .object({
    /**
     * `MM/DD/YYYY HH:mm` in New York, or ISO 8601 with an offset; a time that exists. That it
     * lies in the future is checked against the server's clock.
     */
    scheduledStart: clubDateTimeSchema({ iso: true }).optional(),
    location: podclubLocationSchema.optional(),
    zoomLink: zoomLinkSchema.optional(),
    status: podclubStatusSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'Change at least one of scheduledStart, location, zoomLink or status',
    path: ['non_field_errors'],
  })
export type UpdatePodclubBody = z.infer<typeof updatePodclubBodySchema>

/** The Zoom chat text as saved from Zoom; at most 200,000 characters. */
export const updateChatlogBodySchema = z.object({
  chatlog: textSchema({ error: 'chatlog is required' }).max(
    200_000,
    'The chat log is too long (200,000 characters at most)',
  ),
})

export const createInviteCodesBodySchema = z.object({
  count: z.coerce
    .number({ error: 'count must be a whole number from 1 to 100' })
    .int('count must be a whole number from 1 to 100')
    .min(1, 'count must be a whole number from 1 to 100')
    .max(100, 'count must be a whole number from 1 to 100'),
})
export const inviteCodesResponseSchema = envelope(z.object({ codes: z.array(z.string()) }))

export const podclubIdParamSchema = z.object({ id: idSchema })

/** The one-click unsubscribe of a blast: the member's id and a signed token from the e-mail. */
export const unsubscribeBodySchema = z.object({
  uid: idSchema,
  token: textSchema().trim().min(1).max(200),
})
export const unsubscribeResponseSchema = envelope(z.object({ unsubscribed: z.literal(true) }))

/** POST /register_admin/:podclubId/:username/: an operator gives a member a seat. */
export const registerAdminParamsSchema = z.object({
  podclubId: idSchema,
  username: textSchema().trim().min(1).max(100),
})

/**
 * POST /controlpanel/podclubs/ (CONTRACT.md): the proposal payload with any future date, plus
 * the podmeister's username and a Zoom link (empty: the club's default for a zoom podclub).
 */
export function createOperatorPodclubBodySchema(now: () => Date = () => new Date()) {
  return createProposalBodySchema(now)
    .omit({ scheduledStart: true })
    .extend({
      scheduledStart: clubDateTimeSchema({ now }),
      podmeister: textSchema({ error: PODMEISTER_REQUIRED })
        .trim()
        .min(1, PODMEISTER_REQUIRED)
        .max(100, PODMEISTER_REQUIRED),
      zoomLink: zoomLinkSchema.optional().default(''),
    })
}
export const PODMEISTER_REQUIRED = 'Podmeister username is required'
export type CreateOperatorPodclubBody = z.input<ReturnType<typeof createOperatorPodclubBodySchema>>

// The operators' calls (spec 2 §7 and CONTRACT.md): super users only.

const tags = ['control panel']
const access = 'superuser'

/** Everything the panel shows, each list bounded by the server. */
export const getControlPanelEndpoint = defineEndpoint({
  method: 'GET',
  path: '/controlpanel/',
  access,
  tags,
  response: { 200: controlPanelResponseSchema },
})

/** 'min' sends the 10-minute notice now, 'complete' marks the podclub complete. */
export const triggerNoticeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/controlpanel/trigger/',
  access,
  tags,
  body: createTriggerBodySchema,
  response: { 200: triggerResponseSchema },
})

/** The monthly blast, sent to super users only. */
export const sendTestBlastEndpoint = defineEndpoint({
  method: 'POST',
  path: '/testmonthlyblast/',
  access,
  tags,
  body: createBlastBodySchema,
  response: { 200: blastResponseSchema },
})

/** The monthly blast to every member who has not unsubscribed. */
export const sendMonthlyBlastEndpoint = defineEndpoint({
  method: 'POST',
  path: '/monthlyblast/',
  access,
  tags,
  summary: 'Queue the monthly blast: answers at once with the job that sends it',
  body: createBlastBodySchema,
  response: { 202: jobResponseSchema },
})

/** An operator's change of date, location, link or status. */
export const updatePodclubEndpoint = defineEndpoint({
  method: 'PATCH',
  path: '/controlpanel/podclubs/:id/',
  access,
  tags,
  params: podclubIdParamSchema,
  body: updatePodclubBodySchema,
  response: { 200: triggerResponseSchema },
})

/** Saves the Zoom chat text, replacing any earlier one. */
export const updateChatlogEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/controlpanel/podclubs/:id/chatlog/',
  access,
  tags,
  params: podclubIdParamSchema,
  body: updateChatlogBodySchema,
  response: { 200: triggerResponseSchema },
})

/** New single-use welcome codes. */
export const createInviteCodesEndpoint = defineEndpoint({
  method: 'POST',
  path: '/controlpanel/invite_codes/',
  access,
  tags,
  body: createInviteCodesBodySchema,
  response: { 201: inviteCodesResponseSchema },
})

export const quickRegisterEndpoint = defineEndpoint({
  method: 'POST',
  path: '/register_admin/:podclubId/:username/',
  access,
  tags,
  summary: 'Quick registration: give a member a seat',
  params: registerAdminParamsSchema,
  response: { 200: registrationStateResponseSchema },
})

export const createOperatorPodclubEndpoint = defineEndpoint({
  method: 'POST',
  path: '/controlpanel/podclubs/',
  access,
  tags,
  summary: 'Create an upcoming podclub with any future date and podmeister',
  // "In the future" is judged by the clock at each request.
  body: createOperatorPodclubBodySchema,
  response: { 201: createProposalResponseSchema },
})

// The blasts' unsubscribe.

/** The unsubscribe page's call: the signed link of a blast turns blasts off. */
export const unsubscribeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/unsubscribe/',
  access: 'public',
  tags: ['blasts'],
  body: unsubscribeBodySchema,
  response: { 200: unsubscribeResponseSchema },
})

/**
 * RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` as a form, with
 * no cookie and no CSRF token; the signed token in the URL is the proof. Outside the API for
 * that reason. An address that cannot be one of ours is a 404, so the server reads the
 * parameters itself.
 */
export const unsubscribeOneClickEndpoint = defineEndpoint({
  method: 'POST',
  path: '/unsubscribe/one-click/:uid/:token',
  access: 'public',
  secretParams: ['token'],
  outsideApi: true,
})
