import { z } from 'zod'
import { envelope } from './common'

/** What the page needs to know about this installation: the share text's club code, its URL. */
export const publicConfigSchema = z.object({
  club_invite_code: z.string(),
  app_url: z.string(),
})
export type PublicConfig = z.infer<typeof publicConfigSchema>
export const getPublicConfigResponseSchema = envelope(publicConfigSchema)
