import { z } from 'zod'
import { envelope, okSchema, textSchema } from './common'
import { defineEndpoint } from './endpoint'

export const sessionUserSchema = z.object({
  username: z.string(),
  email: z.string(),
  is_superuser: z.boolean(),
})
export type SessionUser = z.infer<typeof sessionUserSchema>

export const whoamiSchema = z.object({
  isAuthenticated: z.boolean(),
  user: sessionUserSchema.nullable(),
})
export type Whoami = z.infer<typeof whoamiSchema>
export const whoamiResponseSchema = envelope(whoamiSchema)

export const createLoginBodySchema = z.object({
  username: textSchema({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(254),
  // Checked for emptiness trimmed, but used as typed: spaces can be part of a password.
  password: textSchema({ error: 'Password is required' })
    .refine((v) => v.trim().length > 0, 'Password is required')
    .max(1024),
})
export type CreateLoginBody = z.infer<typeof createLoginBodySchema>

export const USERNAME_RULE = /^[a-z0-9.]+$/

export const usernameSchema = textSchema({ error: 'Username must be at least 3 characters' })
  .min(3, 'Username must be at least 3 characters')
  .max(24, 'Username must be 24 characters or less')
  .regex(USERNAME_RULE, 'Username can only contain lowercase letters, numbers, and periods')

export const emailSchema = textSchema({ error: 'Please enter a valid email address' })
  .trim()
  .max(254, 'Please enter a valid email address')
  .pipe(z.email('Please enter a valid email address'))

export const passwordSchema = textSchema({ error: 'Password must be at least 8 characters' })
  .min(8, 'Password must be at least 8 characters')
  .max(1024, 'Password must be 1024 characters or less')

/** A code the club does not know (or has retired): what the invite step's toast explains. */
export const INVALID_INVITE_CODE_MESSAGE =
  'This invite code does not work. Check it for typos, or ask the member who gave it to you.'
export const USED_INVITE_CODE_MESSAGE = 'This invite code has already been used'
/**
 * Sign-up's answer when the e-mail address belongs to an account: it does not say so, and the
 * owner gets an e-mail instead (docs/decisions/013).
 */
export const SIGNUP_EMAIL_REFUSED_MESSAGE =
  'We could not create an account with this e-mail address. If it is yours, log in or reset your password; we have e-mailed it instructions.'

export const inviteCodeSchema = textSchema({ error: 'Invite code is required' })
  .trim()
  .min(1, 'Invite code is required')
  .max(64, INVALID_INVITE_CODE_MESSAGE)

export const createSignupBodySchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  inviteCode: inviteCodeSchema,
  city: textSchema({ error: 'Please enter a valid city' })
    .trim()
    .min(2, 'Please enter a valid city')
    .max(100, 'Please enter a valid city'),
  source: textSchema({ error: 'Please tell us how you found us' })
    .trim()
    .min(1, 'Please tell us how you found us')
    .max(100, 'Response must be 100 characters or less'),
})
export type CreateSignupBody = z.infer<typeof createSignupBodySchema>

export const validateInviteCodeBodySchema = z.object({ code: inviteCodeSchema })
export const validateInviteCodeResponseSchema = envelope(z.object({ valid: z.literal(true) }))

// The calls (spec 2 §7).

const tags = ['auth']

/** Who is logged in; it also sets the csrftoken cookie every later write needs. */
export const getWhoamiEndpoint = defineEndpoint({
  method: 'GET',
  path: '/whoami/',
  access: 'public',
  tags,
  response: { 200: whoamiResponseSchema },
})

/** Answers the whoami shape; a wrong name or password is a 401 the login form shows. */
export const loginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/login/',
  access: 'public',
  tags,
  body: createLoginBodySchema,
  response: { 200: whoamiResponseSchema },
})

export const logoutEndpoint = defineEndpoint({
  method: 'POST',
  path: '/logout/',
  access: 'public',
  tags,
  response: { 200: okSchema },
})

/** Creates the account and its session. */
export const signupEndpoint = defineEndpoint({
  method: 'POST',
  path: '/signup/',
  access: 'public',
  tags,
  body: createSignupBodySchema,
  response: { 201: whoamiResponseSchema },
})

/** Succeeds when the code would let someone sign up now. */
export const validateInviteCodeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/validate_invite_code/',
  access: 'public',
  tags,
  body: validateInviteCodeBodySchema,
  response: { 200: validateInviteCodeResponseSchema },
})
