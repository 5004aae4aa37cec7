import { z } from 'zod'
import { envelope, textSchema } from './common'
import { defineEndpoint } from './endpoint'

const podcastLinkSchema = textSchema({ error: 'Podcast link is required' })
  .trim()
  .min(1, 'Podcast link is required')
  .max(2000, 'Please enter a valid podcast episode URL')
  .pipe(
    z.url({
      protocol: /^https?$/,
      error: 'Please enter a valid podcast episode URL',
    }),
  )

/** The propose card's 'Suggest a podcast' form (spec 1 §5). */
export const createSuggestionBodySchema = z.object({
  podcastLink: podcastLinkSchema,
  reason: textSchema({ error: 'Reason must be less than 300 characters' })
    .trim()
    .max(300, 'Reason must be less than 300 characters')
    .optional(),
})
export type CreateSuggestionBody = z.infer<typeof createSuggestionBodySchema>

/** `POST /feedback/` (spec 1 §7): a link and what the member thinks of it. */
export const createFeedbackBodySchema = z.object({
  podcastLink: textSchema({ error: 'Please enter a valid podcast episode URL' })
    .trim()
    .max(2000, 'Please enter a valid podcast episode URL')
    .pipe(
      z.union([
        z.literal(''),
        z.url({ protocol: /^https?$/, error: 'Please enter a valid podcast episode URL' }),
      ]),
    )
    .optional(),
  description: textSchema({ error: 'Feedback is required' })
    .trim()
    .min(1, 'Feedback is required')
    .max(2000, 'Feedback must be less than 2000 characters'),
})
export type CreateFeedbackBody = z.infer<typeof createFeedbackBodySchema>

export const createdSchema = envelope(z.object({ id: z.number().int() }))

export const suggestPodcastEndpoint = defineEndpoint({
  method: 'POST',
  path: '/suggest_podcast/',
  access: 'member',
  tags: ['suggestions'],
  summary: 'Suggest a podcast for a future podclub',
  body: createSuggestionBodySchema,
  response: { 201: createdSchema },
})

export const sendFeedbackEndpoint = defineEndpoint({
  method: 'POST',
  path: '/feedback/',
  access: 'member',
  tags: ['suggestions'],
  summary: 'Tell the operators what you think of a podcast',
  body: createFeedbackBodySchema,
  response: { 201: createdSchema },
})
