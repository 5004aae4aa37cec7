import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createWaitlistEntryBodySchema } from '#contract/accounts'
import {
  confirmEmailBodySchema,
  confirmEmailResponseSchema,
  confirmPasswordResetBodySchema,
  createConfirmationEmailBodySchema,
  createPasswordResetBodySchema,
  validatePasswordResetTokenBodySchema,
} from '#contract/accounts'
import { okSchema } from '#contract/common'
import type { AppDeps } from '../../deps'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { confirmEmail, resendConfirmation } from './email-confirmation.service'
import { checkResetToken, requestPasswordReset, resetPassword } from './password-reset.service'
import { joinWaitlist } from './waitlist.service'

const MINUTE = 60

/** Attempts allowed per key and window (seconds). */
export const accountsLimits = {
  resetRequestAddress: defineRateLimit('reset-request-address', 10, 15 * MINUTE),
  /** Mails to one address, so the form cannot be used to flood someone's inbox. */
  resetRequestEmail: defineRateLimit('reset-request-email', 3, 60 * MINUTE),
  /** Guessing tokens: validate and confirm share one budget per address. */
  resetToken: defineRateLimit('reset-token', 30, 15 * MINUTE),
  confirmationAddress: defineRateLimit('confirmation-address', 10, 60 * MINUTE),
  confirmationAccount: defineRateLimit('confirmation-account', 3, 60 * MINUTE),
  confirmEmail: defineRateLimit('confirm-email', 30, 15 * MINUTE),
  waitlist: defineRateLimit('waitlist', 10, 60 * MINUTE),
}

const ok = { data: { ok: true as const } }

export const accountsRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/waitlist/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['waitlist'],
        body: createWaitlistEntryBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume(accountsLimits.waitlist, limitKeys.address(request))
      await joinWaitlist(deps, request.body)
      return ok
    },
  )

  const resetTags = ['password reset']

  app.post(
    '/auth/passwordreset/',
    {
      config: { access: 'public' },
      schema: { tags: resetTags, body: createPasswordResetBodySchema, response: { 200: okSchema } },
    },
    async (request) => {
      const { email } = request.body
      await app.rateLimit.consume(accountsLimits.resetRequestAddress, limitKeys.address(request))
      await app.rateLimit.consume(accountsLimits.resetRequestEmail, limitKeys.email(email))
      await requestPasswordReset(deps, email)
      return ok
    },
  )

  app.post(
    '/auth/passwordreset/validate_token/',
    {
      config: { access: 'public' },
      schema: {
        tags: resetTags,
        body: validatePasswordResetTokenBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume(accountsLimits.resetToken, limitKeys.address(request))
      await checkResetToken(deps, request.body.token)
      return ok
    },
  )

  app.post(
    '/auth/passwordreset/confirm/',
    {
      config: { access: 'public' },
      schema: {
        tags: resetTags,
        body: confirmPasswordResetBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request, reply) => {
      await app.rateLimit.consume(accountsLimits.resetToken, limitKeys.address(request))
      await resetPassword(deps, request.body.token, request.body.password)
      // The reset ended every session of the account, this browser's included if it had one.
      if (request.user) await reply.endSession()
      return ok
    },
  )

  const confirmTags = ['e-mail confirmation']

  app.post(
    '/confirmationEmail/',
    {
      config: { access: 'public' },
      schema: {
        tags: confirmTags,
        body: createConfirmationEmailBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      const { username } = request.body
      await app.rateLimit.consume(accountsLimits.confirmationAddress, limitKeys.address(request))
      await app.rateLimit.consume(accountsLimits.confirmationAccount, limitKeys.account(username))
      await resendConfirmation(deps, username)
      return ok
    },
  )

  app.post(
    '/confirmEmail/',
    {
      config: { access: 'public' },
      schema: {
        tags: confirmTags,
        body: confirmEmailBodySchema,
        response: { 200: confirmEmailResponseSchema },
      },
    },
    async (request) => {
      await app.rateLimit.consume(accountsLimits.confirmEmail, limitKeys.address(request))
      await confirmEmail(deps, request.body.uid, request.body.token)
      return { data: { confirmed: true as const } }
    },
  )
}
