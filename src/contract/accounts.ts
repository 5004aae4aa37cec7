import { z } from 'zod'
import { envelope, textSchema } from './common'

/** POST /waitlist/: only the address is required (spec 2, Waitlist). */
export const createWaitlistEntryBodySchema = z.object({
  email: textSchema({ error: 'Please enter a valid email address' })
    .trim()
    .max(254, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
  how: textSchema()
    .trim()
    .max(200, 'Response must be 200 characters or less')
    .optional()
    .default(''),
  favoritePodcast: textSchema()
    .trim()
    .max(200, 'Response must be 200 characters or less')
    .optional()
    .default(''),
})
export type CreateWaitlistEntryBody = z.input<typeof createWaitlistEntryBodySchema>

/** GET /config/: the settings public screens show (about, QR invite). */
export const publicConfigSchema = z.object({
  appUrl: z.string(),
  clubInviteCode: z.string(),
  /** `APP_URL/register/<club code>`: what the QR code and the share text point to. */
  inviteLink: z.string(),
  contactEmail: z.string(),
})
export type PublicConfig = z.infer<typeof publicConfigSchema>
export const publicConfigResponseSchema = envelope(publicConfigSchema)
