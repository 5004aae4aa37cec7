import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  confirmEmailEndpoint,
  confirmPasswordResetEndpoint,
  joinWaitlistEndpoint,
  requestPasswordResetEndpoint,
  resendConfirmationEmailEndpoint,
  validateResetTokenEndpoint,
} from '#contract/accounts'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { confirmEmail, resendConfirmation } from './email-confirmation.service'
import { checkResetToken, requestPasswordReset, resetPassword } from './password-reset.service'
import { joinWaitlist } from './waitlist.service'

const MINUTE = 60

/** Attempts allowed per key and window (seconds). */
export const accountsLimits = {
  /**
   * Requests from one address. Mails to one account are not a limit that refuses (a stranger
   * would use it up before the owner asks): one reset mail per account per window is sent,
   * whoever asks (`RESET_MAIL_WINDOW_MS`).
   */
  resetRequestAddress: defineRateLimit('reset-request-address', 10, 15 * MINUTE),
  /** Guessing tokens: validate and confirm share one budget per address. */
  resetToken: defineRateLimit('reset-token', 30, 15 * MINUTE),
  confirmationAddress: defineRateLimit('confirmation-address', 10, 60 * MINUTE),
  confirmationAccount: defineRateLimit('confirmation-account', 3, 60 * MINUTE),
  confirmEmail: defineRateLimit('confirm-email', 30, 15 * MINUTE),
  waitlist: defineRateLimit('waitlist', 10, 60 * MINUTE),
}

const ok = { data: { ok: true as const } }

export const accountsRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, joinWaitlistEndpoint, async (request) => {
    await app.rateLimit.consume(accountsLimits.waitlist, limitKeys.address(request))
    await joinWaitlist(deps, request.body)
    return ok
  })

  route(app, requestPasswordResetEndpoint, async (request) => {
    const { email } = request.body
    await app.rateLimit.consume(accountsLimits.resetRequestAddress, limitKeys.address(request))
    await requestPasswordReset(deps, email)
    return ok
  })

  route(app, validateResetTokenEndpoint, async (request) => {
    await app.rateLimit.consume(accountsLimits.resetToken, limitKeys.address(request))
    await checkResetToken(deps, request.body.token)
    return ok
  })

  route(app, confirmPasswordResetEndpoint, async (request, reply) => {
    await app.rateLimit.consume(accountsLimits.resetToken, limitKeys.address(request))
    await resetPassword(deps, request.body.token, request.body.password)
    // The reset ended every session of the account, this browser's included if it had one.
    if (request.user) await reply.endSession()
    return ok
  })

  route(app, resendConfirmationEmailEndpoint, async (request) => {
    const { username } = request.body
    await app.rateLimit.consume(accountsLimits.confirmationAddress, limitKeys.address(request))
    await app.rateLimit.consume(accountsLimits.confirmationAccount, limitKeys.account(username))
    await resendConfirmation(deps, username)
    return ok
  })

  route(app, confirmEmailEndpoint, async (request) => {
    await app.rateLimit.consume(accountsLimits.confirmEmail, limitKeys.address(request))
    await confirmEmail(deps, request.body.uid, request.body.token)
    return { data: { confirmed: true as const } }
  })
}
