import { z } from 'zod'
import { createSignupBodySchema } from './auth'
import { envelope, okSchema, textSchema } from './common'
import { defineEndpoint } from './endpoint'

// Account screens beyond login and signup: register form, password reset, e-mail confirmation,
// waitlist and the public settings. Kept apart from auth.ts, which every page loads first.

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

/** The register form: the signup fields without the code (it comes from the invite step). */
export const registerFormSchema = createSignupBodySchema
  .omit({ inviteCode: true })
  .extend({ confirm: textSchema({ error: 'Passwords do not match' }) })
  .refine((v) => v.password === v.confirm, {
    message: 'Passwords do not match',
    path: ['confirm'],
  })
export type RegisterForm = z.infer<typeof registerFormSchema>

// Password reset (spec 2 §5 and §7: /auth/passwordreset/...).

export const createPasswordResetBodySchema = z.object({
  email: textSchema({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address')),
})
export type CreatePasswordResetBody = z.infer<typeof createPasswordResetBodySchema>

/** Reset tokens are URL-safe base64 with a dot; anything else cannot be one. */
export const resetTokenSchema = textSchema({ error: 'Invalid password reset token.' })
  .min(1, 'Invalid password reset token.')
  .max(200, 'Invalid password reset token.')

export const validatePasswordResetTokenBodySchema = z.object({ token: resetTokenSchema })

export const newPasswordSchema = textSchema({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(8, 'Password must have at least 8 characters')
  .max(1024, 'Password must be 1024 characters or less')

export const confirmPasswordResetBodySchema = z.object({
  password: newPasswordSchema,
  token: resetTokenSchema,
})
export type ConfirmPasswordResetBody = z.infer<typeof confirmPasswordResetBodySchema>

/** The reset form: the new password twice. */
export const resetPasswordFormSchema = z
  .object({
    password: newPasswordSchema,
    confirm: textSchema({ error: 'Password confirmation is required' }).min(
      1,
      'Password confirmation is required',
    ),
  })
  .refine((v) => v.confirm === '' || v.password === v.confirm, {
    message: 'Passwords do not match',
    path: ['confirm'],
  })
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>

// E-mail confirmation (spec 2 §7: defined, its screen not shown).

export const createConfirmationEmailBodySchema = z.object({
  username: textSchema({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(254),
})

export const confirmEmailBodySchema = z.object({
  uid: z.coerce
    .number({ error: 'Invalid confirmation link.' })
    .int('Invalid confirmation link.')
    .positive('Invalid confirmation link.')
    .max(2_147_483_647, 'Invalid confirmation link.'),
  token: textSchema({ error: 'Invalid confirmation link.' })
    .min(1, 'Invalid confirmation link.')
    .max(200, 'Invalid confirmation link.'),
})
export type ConfirmEmailBody = z.infer<typeof confirmEmailBodySchema>
export const confirmEmailResponseSchema = envelope(z.object({ confirmed: z.literal(true) }))

// The calls.

export const joinWaitlistEndpoint = defineEndpoint({
  method: 'POST',
  path: '/waitlist/',
  access: 'public',
  tags: ['waitlist'],
  body: createWaitlistEntryBodySchema,
  response: { 200: okSchema },
})

const resetTags = ['password reset']

/** Answers alike whether or not the address has an account. */
export const requestPasswordResetEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/passwordreset/',
  access: 'public',
  tags: resetTags,
  body: createPasswordResetBodySchema,
  response: { 200: okSchema },
})

/** Succeeds while the reset link still works. */
export const validateResetTokenEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/passwordreset/validate_token/',
  access: 'public',
  tags: resetTags,
  body: validatePasswordResetTokenBodySchema,
  response: { 200: okSchema },
})

/** Sets the new password; every session of the account ends. */
export const confirmPasswordResetEndpoint = defineEndpoint({
  method: 'POST',
  path: '/auth/passwordreset/confirm/',
  access: 'public',
  tags: resetTags,
  body: confirmPasswordResetBodySchema,
  response: { 200: okSchema },
})

const confirmTags = ['e-mail confirmation']

export const resendConfirmationEmailEndpoint = defineEndpoint({
  method: 'POST',
  path: '/confirmationEmail/',
  access: 'public',
  tags: confirmTags,
  body: createConfirmationEmailBodySchema,
  response: { 200: okSchema },
})

/** Confirming twice is harmless, so the page may call it on load. */
export const confirmEmailEndpoint = defineEndpoint({
  method: 'POST',
  path: '/confirmEmail/',
  access: 'public',
  tags: confirmTags,
  body: confirmEmailBodySchema,
  response: { 200: confirmEmailResponseSchema },
})
