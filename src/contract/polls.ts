import { z } from 'zod'
import { emailSchema } from './auth'
import { envelope, okSchema, textSchema } from './common'
import { defineEndpoint } from './endpoint'

/** How many options a poll offers (CONTRACT.md, operator call). */
export const POLL_OPTIONS_MIN = 2
export const POLL_OPTIONS_MAX = 10
/** The page shows a vote code by its first characters only (spec 2 §9). */
export const VOTE_CODE_DISPLAY_LENGTH = 8

/** What the server tells a visitor about a vote code (spec 2 §8: clear texts of ours). */
export const voteCodeErrors = {
  invalid: 'Invalid or expired vote code',
  used: 'This code has already been used',
  expired: 'This poll has expired',
} as const

export const POLL_EXPIRED_MESSAGE = voteCodeErrors.expired
export const POLL_OPTION_MISMATCH_MESSAGE = 'This option is not part of this poll'

/** Codes are URL-safe random strings; anything else cannot be one of ours. */
export const voteCodeSchema = textSchema({ error: voteCodeErrors.invalid })
  .trim()
  .min(1, voteCodeErrors.invalid)
  .max(128, voteCodeErrors.invalid)

export const POLL_NOT_FOUND_MESSAGE = 'Poll not found'
/** A poll id in a path; anything that cannot be one reads as an unknown poll. */
export const pollIdSchema = z.coerce
  .number({ error: POLL_NOT_FOUND_MESSAGE })
  .int(POLL_NOT_FOUND_MESSAGE)
  .positive(POLL_NOT_FOUND_MESSAGE)
  .max(2_147_483_647, POLL_NOT_FOUND_MESSAGE)

export const pollParamsSchema = z.object({ pollId: pollIdSchema })
export const getPollParamsSchema = z.object({
  pollId: pollIdSchema,
  voteCode: voteCodeSchema.optional(),
})

export const pollResultSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  podcast: z.string(),
  description: z.string(),
  link: z.string(),
  votes: z.number().int().min(0),
  /** Share of all votes, 0–100 with one decimal; equal votes always show equal shares. */
  percentage: z.number().min(0).max(100),
})
export type PollResult = z.infer<typeof pollResultSchema>

export const pollSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** The theme. */
  description: z.string(),
  /** When voting closes, in the club's time zone ('Monday, December 7, 2026'). */
  pretty_date: z.string(),
  /** '11:59 PM EST' (EDT in summer). */
  pretty_time: z.string(),
  is_active: z.boolean(),
  is_expired: z.boolean(),
  /** ISO 8601. */
  expires_at: z.string(),
  total_votes: z.number().int().min(0),
  /** Sorted by votes, most first. */
  results: z.array(pollResultSchema),
  /** Null when no code was given. */
  vote_code_valid: z.boolean().nullable(),
  vote_code_error: z.string().nullable(),
})
export type Poll = z.infer<typeof pollSchema>
export const getPollResponseSchema = envelope(pollSchema)

export const createPollInviteBodySchema = z.object({ email: emailSchema })
export type CreatePollInviteBody = z.infer<typeof createPollInviteBodySchema>
/** The same answer whoever the address belongs to. */
export const createPollInviteResponseSchema = okSchema

export const createPollVoteBodySchema = z.object({
  voteCode: voteCodeSchema,
  optionId: z.coerce
    .number({ error: 'Choose an option' })
    .int('Choose an option')
    .positive('Choose an option')
    .max(2_147_483_647, 'Choose an option'),
})
export type CreatePollVoteBody = z.infer<typeof createPollVoteBodySchema>
/** A counted vote answers the poll as it now stands, read with the used code. */
export const createPollVoteResponseSchema = getPollResponseSchema

const isWebLink = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

export const createPollOptionSchema = z.object({
  title: textSchema({ error: 'Option title is required' })
    .trim()
    .min(1, 'Option title is required')
    .max(200, 'Option title must be 200 characters or less'),
  podcast: textSchema()
    .trim()
    .max(200, 'Podcast must be 200 characters or less')
    .optional()
    .default(''),
  description: textSchema()
    .trim()
    .max(2000, 'Description must be 2000 characters or less')
    .optional()
    .default(''),
  link: textSchema()
    .trim()
    .max(2048, 'Enter a valid link')
    .refine((v) => v === '' || isWebLink(v), 'Enter a valid link')
    .optional()
    .default(''),
})

export const createPollBodySchema = z.object({
  title: textSchema({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(200, 'Title must be 200 characters or less'),
  description: textSchema()
    .trim()
    .max(2000, 'Description must be 2000 characters or less')
    .optional()
    .default(''),
  /** ISO 8601 with an offset; must lie in the future (checked by the server against its clock). */
  expires_at: z.iso.datetime({ offset: true, error: 'Enter a valid date and time' }),
  options: z
    .array(createPollOptionSchema, {
      error: `Give ${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX} options`,
    })
    .min(POLL_OPTIONS_MIN, `Give ${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX} options`)
    .max(POLL_OPTIONS_MAX, `Give ${POLL_OPTIONS_MIN} to ${POLL_OPTIONS_MAX} options`),
})
export type CreatePollBody = z.input<typeof createPollBodySchema>
export const createPollResponseSchema = getPollResponseSchema

// The calls.

const tags = ['polls']

export const getPollEndpoint = defineEndpoint({
  method: 'GET',
  path: '/polls/:pollId/',
  access: 'public',
  tags,
  params: pollParamsSchema,
  response: { 200: getPollResponseSchema },
})

/** The poll, and whether the code can vote in it. */
export const getPollWithCodeEndpoint = defineEndpoint({
  method: 'GET',
  path: '/polls/:pollId/:voteCode/',
  access: 'public',
  secretParams: ['voteCode'],
  tags,
  params: getPollParamsSchema,
  response: { 200: getPollResponseSchema },
})

/** Mails a vote code to the address. */
export const requestVoteCodeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/polls/:pollId/invite/',
  access: 'public',
  tags,
  params: pollParamsSchema,
  body: createPollInviteBodySchema,
  response: { 200: createPollInviteResponseSchema },
})

/** Answers the poll as it stands after the vote. */
export const castVoteEndpoint = defineEndpoint({
  method: 'POST',
  path: '/polls/:pollId/cast/',
  access: 'public',
  tags,
  params: pollParamsSchema,
  body: createPollVoteBodySchema,
  response: { 200: createPollVoteResponseSchema },
})

export const createPollEndpoint = defineEndpoint({
  method: 'POST',
  path: '/controlpanel/polls/',
  access: 'superuser',
  tags: ['controlpanel'],
  body: createPollBodySchema,
  response: { 201: createPollResponseSchema },
})
