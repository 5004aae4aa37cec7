import { z } from 'zod'
import { envelope, textSchema } from './common'
import { defineEndpoint } from './endpoint'
import { podclubIdParamsSchema, podclubSchema } from './podclubs'

import { HINDSIGHT_MAX_LENGTH } from './podclub-detail-limits'

export { HINDSIGHT_MAX_LENGTH, HINDSIGHTS_PER_PODCLUB } from './podclub-detail-limits'

/** A member listed on a podclub, with their cred (completed podclubs attended + hosted). */
export const attendeeSchema = z.object({
  username: z.string(),
  cred: z.number().int().min(0),
})
export type Attendee = z.infer<typeof attendeeSchema>

export const hindsightSchema = z.object({ username: z.string(), message: z.string() })
export type Hindsight = z.infer<typeof hindsightSchema>

/**
 * The detail of one podclub (spec 2 §3): the card's fields, the podmeister and attendees with
 * their cred, and its links. `hindsights` and `chatlog` are present only for the attendees
 * (podmeister included) of a completed podclub; anyone else gets an answer without them.
 */
export const podclubDetailSchema = podclubSchema
  .omit({ podmeister: true, api_registered_usernames: true })
  .extend({
    podmeister: z.object({
      username: z.string(),
      profile: z.object({ cred: z.number().int().min(0) }),
    }),
    /** Members holding a seat, in the order they took it (the podmeister is not among them). */
    api_registered_usernames: z.object({ reserved: z.array(attendeeSchema) }),
    /** The podclub's non-empty links, in order. */
    links: z.array(z.string()),
    hindsights: z.array(hindsightSchema).optional(),
    chatlog: z.string().optional(),
  })
export type PodclubDetail = z.infer<typeof podclubDetailSchema>
export const getPodclubDetailResponseSchema = envelope(podclubDetailSchema)

const HINDSIGHT_EMPTY = 'Hindsight cannot be empty'

export const hindsightTextSchema = textSchema({ error: HINDSIGHT_EMPTY })
  .trim()
  .min(1, HINDSIGHT_EMPTY)
  .max(HINDSIGHT_MAX_LENGTH, 'Hindsight must be 1,000 characters or less')

export const createHindsightBodySchema = z.object({ hindsight: hindsightTextSchema })
export type CreateHindsightBody = z.infer<typeof createHindsightBodySchema>
export const createHindsightResponseSchema = envelope(hindsightSchema)

// The calls.

export const getPodclubDetailEndpoint = defineEndpoint({
  method: 'GET',
  path: '/podclubs/:podclubId/',
  access: 'public',
  tags: ['podclubs'],
  params: podclubIdParamsSchema,
  response: { 200: getPodclubDetailResponseSchema },
})

export const submitHindsightEndpoint = defineEndpoint({
  method: 'POST',
  path: '/podclub/:podclubId/submit_hindsight/',
  access: 'member',
  tags: ['hindsights'],
  params: podclubIdParamsSchema,
  body: createHindsightBodySchema,
  response: { 201: createHindsightResponseSchema },
})

/**
 * The podclub's `.ics`, a download: the browser fetches it through a plain link (calendar apps
 * open the file), so it has no JSON answer.
 */
export const getPodclubCalendarEndpoint = defineEndpoint({
  method: 'GET',
  path: '/podclubs/:podclubId/calendar/',
  access: 'public',
  tags: ['calendar'],
  summary: "The podclub's calendar entry (.ics), for 'add to calendar'",
  params: podclubIdParamsSchema,
})
