import { z } from 'zod'
import { envelope } from './common'
import { defineEndpoint } from './endpoint'

/**
 * GET /config/: what the page needs to know about this installation: its public address, the
 * reusable club code (share text, QR page), the invite link made of both, and the contact
 * address the about page gives.
 */
export const publicConfigSchema = z.object({
  app_url: z.string(),
  club_invite_code: z.string(),
  /** `APP_URL/register/<club code>`: what the QR code and the share text point to. */
  invite_link: z.string(),
  contact_email: z.string(),
})
export type PublicConfig = z.infer<typeof publicConfigSchema>
export const getPublicConfigResponseSchema = envelope(publicConfigSchema)

export const getPublicConfigEndpoint = defineEndpoint({
  method: 'GET',
  path: '/config/',
  access: 'public',
  tags: ['config'],
  summary: "The club's address, reusable invite code and link, and contact address",
  response: { 200: getPublicConfigResponseSchema },
})
