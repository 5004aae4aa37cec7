import { z } from 'zod'
import { envelope, idSchema, textSchema } from './common'
import { defineEndpoint } from './endpoint'

/**
 * `POST /invite/` (spec 1 §3, §5): the home card sends email and note; phone and podclubId are
 * part of the call and left empty there. An empty note is left out.
 */
export const createInviteBodySchema = z.object({
  email: textSchema({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
  note: textSchema({ error: 'Note must be less than 500 characters' })
    .trim()
    .max(500, 'Note must be less than 500 characters')
    .optional()
    .transform((v) => (v ? v : undefined)),
  phone: textSchema().trim().max(40, 'Please enter a valid phone number').optional(),
  podclubId: z.union([z.literal(''), z.null(), idSchema]).optional(),
})
export type CreateInviteBody = z.input<typeof createInviteBodySchema>

export const createInviteResponseSchema = envelope(z.object({ sent: z.literal(true) }))

export const sendInviteEndpoint = defineEndpoint({
  method: 'POST',
  path: '/invite/',
  access: 'member',
  tags: ['invites'],
  summary: 'Mail a single-use welcome code to a friend, with a note',
  body: createInviteBodySchema,
  response: { 200: createInviteResponseSchema },
})
