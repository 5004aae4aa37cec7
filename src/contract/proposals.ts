import { z } from 'zod'
import { addClubCalendar, CLUB_TIME_MESSAGES, clubDay } from './club-time'
import { clubDateTimeSchema } from './club-time-schema'
import { envelope, textSchema } from './common'
import { defineEndpoint } from './endpoint'
import { podclubLocationSchema, podclubSchema } from './podclubs'

/*
 * The propose wizard (spec 1 §3, §5) and the payload of POST /propose/ (CONTRACT.md). The form's
 * field names and the payload's differ, the rules and messages do not: each field schema is
 * written once here and used by both. The schedule rule reads New York's calendar through
 * club-time.ts.
 */

/** A proposal is at least this many months ahead of today (New York)... */
export const PROPOSAL_MIN_MONTHS = 1
/** ...and at most this many. */
export const PROPOSAL_MAX_MONTHS = 7
export const PROPOSAL_DEFAULT_TIME = '14:00'

export const PROPOSAL_MESSAGES = {
  episode: 'Episode title is required',
  podcast: 'Podcast name is required',
  keyword1: 'First keyword is required',
  keyword2: 'Second keyword is required',
  keyword3: 'Third keyword is required',
  url: 'Must be a valid URL',
  description: 'Description must be at least 50 characters long',
  podmeisterNote: 'Podmeister note must be at least 50 characters long',
  scheduledStart: CLUB_TIME_MESSAGES.required,
  halfHour: 'Please select times on the hour or half hour only',
  tooSoon: 'Date must be at least one month from today',
  tooLate: 'Date must be no more than seven months from today',
  noSuchTime: CLUB_TIME_MESSAGES.noSuchTime,
  location: 'Please choose zoom or nyc',
} as const

const required = (message: string, max: number, maxMessage: string) =>
  textSchema({ error: message }).trim().min(1, message).max(max, maxMessage)

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

const urlSchema = textSchema({ error: PROPOSAL_MESSAGES.url })
  .trim()
  .max(500, 'Links must be 500 characters or less')
  .refine(isHttpUrl, PROPOSAL_MESSAGES.url)
const optionalUrlSchema = textSchema({ error: PROPOSAL_MESSAGES.url })
  .trim()
  .max(500, 'Links must be 500 characters or less')
  .refine((v) => v === '' || isHttpUrl(v), PROPOSAL_MESSAGES.url)

const longText = (message: string) =>
  textSchema({ error: message })
    .trim()
    .min(50, message)
    .max(2000, 'Please keep it to 2,000 characters or less')

/**
 * The first and last day (`yyyy-MM-dd` in New York) a proposal made at `now` may be scheduled
 * on: one month from today, and seven months from today, by New York's calendar.
 */
export function proposalDayRange(now: Date): { first: string; last: string } {
  return {
    first: clubDay(addClubCalendar(now, { months: PROPOSAL_MIN_MONTHS })),
    last: clubDay(addClubCalendar(now, { months: PROPOSAL_MAX_MONTHS })),
  }
}

/**
 * `scheduledStart` checked against `now()` (the app clock on the server, the browser's on the
 * page): a real New York time on the hour or half hour, from one to seven months ahead.
 */
export function scheduledStartSchema(now: () => Date) {
  return clubDateTimeSchema({
    // The picker writes the value: one it cannot read is a choice not made yet.
    invalid: PROPOSAL_MESSAGES.scheduledStart,
    rule: (date, value) => {
      const minutes = value.slice(-2)
      if (minutes !== '00' && minutes !== '30') return PROPOSAL_MESSAGES.halfHour
      const day = clubDay(date)
      const range = proposalDayRange(now())
      if (day < range.first) return PROPOSAL_MESSAGES.tooSoon
      if (day > range.last) return PROPOSAL_MESSAGES.tooLate
      return null
    },
  })
}

const field = {
  episode: required(PROPOSAL_MESSAGES.episode, 200, 'Episode title must be 200 characters or less'),
  podcast: required(PROPOSAL_MESSAGES.podcast, 100, 'Podcast name must be 100 characters or less'),
  episodeNumber: textSchema().trim().max(20, 'Episode number must be 20 characters or less'),
  keyword1: required(PROPOSAL_MESSAGES.keyword1, 40, 'Keywords must be 40 characters or less'),
  keyword2: required(PROPOSAL_MESSAGES.keyword2, 40, 'Keywords must be 40 characters or less'),
  keyword3: required(PROPOSAL_MESSAGES.keyword3, 40, 'Keywords must be 40 characters or less'),
  link1: urlSchema,
  link2: optionalUrlSchema,
  link3: optionalUrlSchema,
  description: longText(PROPOSAL_MESSAGES.description),
  podmeisterNote: longText(PROPOSAL_MESSAGES.podmeisterNote),
  location: z.enum(podclubLocationSchema.options, { error: PROPOSAL_MESSAGES.location }),
}

/** The wizard's form (spec 1 §3 'Proposal form fields'), checked against `now()`. */
export function proposalFormSchema(now: () => Date = () => new Date()) {
  return z.object({ ...field, scheduledStart: scheduledStartSchema(now) })
}
export type ProposalForm = z.input<ReturnType<typeof proposalFormSchema>>

/** The fields each wizard step checks on Next (spec 1 §4). */
export const PROPOSAL_STEP_FIELDS = [
  ['episode', 'podcast', 'episodeNumber'],
  ['keyword1', 'keyword2', 'keyword3', 'link1', 'link2', 'link3'],
  ['description', 'podmeisterNote'],
  ['scheduledStart', 'location'],
] as const satisfies readonly (readonly (keyof ProposalForm)[])[]

/** The schemas of the four steps, in order: `.pick()`s of the form's. */
export function proposalStepSchemas(now: () => Date = () => new Date()) {
  const form = proposalFormSchema(now)
  return [
    form.pick({ episode: true, podcast: true, episodeNumber: true }),
    form.pick({
      keyword1: true,
      keyword2: true,
      keyword3: true,
      link1: true,
      link2: true,
      link3: true,
    }),
    form.pick({ description: true, podmeisterNote: true }),
    form.pick({ scheduledStart: true, location: true }),
  ] as const
}

export const EMPTY_PROPOSAL_FORM: ProposalForm = {
  episode: '',
  podcast: '',
  episodeNumber: '',
  keyword1: '',
  keyword2: '',
  keyword3: '',
  link1: '',
  link2: '',
  link3: '',
  description: '',
  podmeisterNote: '',
  scheduledStart: '',
  location: 'zoom',
}

/** POST /propose/ (CONTRACT.md): the same rules under the shared call list's names. */
export function createProposalBodySchema(now: () => Date = () => new Date()) {
  return z.object({
    title: field.episode,
    podcastName: field.podcast,
    number: field.episodeNumber.optional().default(''),
    keywordOne: field.keyword1,
    keywordTwo: field.keyword2,
    keywordThree: field.keyword3,
    linkOne: field.link1,
    linkTwo: field.link2.optional().default(''),
    linkThree: field.link3.optional().default(''),
    scheduledStart: scheduledStartSchema(now),
    description: field.description,
    podmeisterNote: field.podmeisterNote,
    location: field.location,
  })
}
export type CreateProposalBody = z.input<ReturnType<typeof createProposalBodySchema>>

/** The wizard's values under the payload's names. */
export function toProposalPayload(form: ProposalForm): CreateProposalBody {
  return {
    title: form.episode,
    podcastName: form.podcast,
    number: form.episodeNumber,
    keywordOne: form.keyword1,
    keywordTwo: form.keyword2,
    keywordThree: form.keyword3,
    linkOne: form.link1,
    linkTwo: form.link2,
    linkThree: form.link3,
    scheduledStart: form.scheduledStart,
    description: form.description,
    podmeisterNote: form.podmeisterNote,
    location: form.location,
  }
}

/** The podclub a proposal created. */
export const createProposalResponseSchema = envelope(podclubSchema)

/** GET /podcasts/: what the wizard's pick-or-type lists suggest. */
export const proposalSuggestionsSchema = z.object({
  podcasts: z.array(z.string()),
  keywords: z.array(z.string()),
})
export type ProposalSuggestions = z.infer<typeof proposalSuggestionsSchema>
export const getProposalSuggestionsResponseSchema = envelope(proposalSuggestionsSchema)

export const getProposalSuggestionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/podcasts/',
  access: 'member',
  tags: ['proposals'],
  response: { 200: getProposalSuggestionsResponseSchema },
})

export const createProposalEndpoint = defineEndpoint({
  method: 'POST',
  path: '/propose/',
  access: 'member',
  tags: ['proposals'],
  // "One to seven months ahead" is judged by the clock at each request.
  body: createProposalBodySchema,
  response: { 201: createProposalResponseSchema },
})
