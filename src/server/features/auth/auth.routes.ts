import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  getWhoamiEndpoint,
  loginEndpoint,
  logoutEndpoint,
  signupEndpoint,
  validateInviteCodeEndpoint,
} from '#contract/auth'
import type { AppDeps } from '../../deps'
import { recordCalendarTokens } from '../calendar/calendar.service'
import { AppError } from '../../lib/app-error'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys, tooMany } from '../../plugins/rate-limit'
import {
  LOGIN_DEVICE_COOKIE,
  LOGIN_DEVICE_MAX_AGE_S,
  LOGIN_DEVICE_PATH,
  newLoginDevice,
  readLoginDevice,
} from './login-device'
import {
  checkInviteCode,
  findLoginAccount,
  signUp,
  toSessionUser,
  verifyLogin,
} from './auth.service'

const MINUTE = 60

/**
 * Attempts allowed per key and window (seconds). Logins are counted so that guessing is walled
 * in without handing strangers a way to lock someone out (docs/decisions/012 and 028):
 * - from a browser that has logged in to the account before (its signed device cookie), only
 *   that browser's attempts on that account count, `loginDevice`;
 * - from anywhere else, the attempts of one address on one account (`loginAccountAddress`,
 *   low), of one address on any account (`loginAddress`), and the failures on the account from
 *   every address but known devices (`loginAccount`). Over that ceiling the account is under
 *   attack: an address that has already failed at it `UNDER_ATTACK_TRIES` times waits out its
 *   window, and any other address still gets in with the right password.
 */
export const authLimits = {
  /** Logins from one address (or IPv6 /64), whatever account: one client trying many. */
  loginAddress: defineRateLimit('login-address', 100, 15 * MINUTE),
  /** Logins into one account from one address; a success there clears it. */
  loginAccountAddress: defineRateLimit('login-account-address', 10, 15 * MINUTE),
  /** Failed logins into one account from every address together, known devices aside. */
  loginAccount: defineRateLimit('login-account', 100, 60 * MINUTE),
  /** Logins into one account from one browser it has logged in from; a success clears it. */
  loginDevice: defineRateLimit('login-device', 10, 15 * MINUTE),
  signup: defineRateLimit('signup', 10, 60 * MINUTE),
  inviteCode: defineRateLimit('invite-code', 20, 15 * MINUTE),
}

/**
 * While an account is over its ceiling of failures, the attempts one address may make at it in
 * the (account, address) window: the owner may mistype twice from a new browser, a guesser gets
 * 3 guesses per address instead of 10.
 */
export const UNDER_ATTACK_TRIES = 3

export const authRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getWhoamiEndpoint, async (request, reply) => {
    reply.ensureCsrfCookie()
    const user = request.user
    return { data: { isAuthenticated: !!user, user: user ? toSessionUser(user) : null } }
  })

  route(app, loginEndpoint, async (request, reply) => {
    const { username, password } = request.body
    const address = limitKeys.address(request)
    const device = readLoginDevice(deps.sessionSecret, request.cookies[LOGIN_DEVICE_COOKIE])
    // Without a device cookie this server signed, the address is counted before the account
    // is even looked up: one client trying many names meets its wall first.
    if (!device) await app.rateLimit.consume(authLimits.loginAddress, address)
    const account = await findLoginAccount(deps.db, username)
    const accountKey = limitKeys.account(account?.id ?? username)
    const isKnownDevice = device !== null && account !== undefined && device.userId === account.id
    let clearOnSuccess
    if (isKnownDevice) {
      clearOnSuccess = {
        rule: authLimits.loginDevice,
        key: `${accountKey}|dev:${device.deviceId}`,
      }
      await app.rateLimit.consume(clearOnSuccess.rule, clearOnSuccess.key)
    } else {
      // A device cookie of another account vouches for nothing here.
      if (device) await app.rateLimit.consume(authLimits.loginAddress, address)
      clearOnSuccess = { rule: authLimits.loginAccountAddress, key: `${accountKey}|${address}` }
      const tries = await app.rateLimit.consume(clearOnSuccess.rule, clearOnSuccess.key)
      // Failures from elsewhere never refuse this address: only its own tries count against it,
      // fewer of them while the account is under attack.
      if (
        tries.consumed > UNDER_ATTACK_TRIES &&
        (await app.rateLimit.peek(authLimits.loginAccount, accountKey)) >=
          authLimits.loginAccount.points
      ) {
        throw tooMany(tries.msBeforeNext)
      }
    }
    const user = await verifyLogin(account, password).catch(async (err: unknown) => {
      // Only a wrong password counts toward the account's ceiling, after it was checked.
      if (!isKnownDevice && err instanceof AppError && err.code === 'INVALID_CREDENTIALS') {
        await app.rateLimit.count(authLimits.loginAccount, accountKey)
      }
      throw err
    })
    await app.rateLimit.reset(clearOnSuccess.rule, clearOnSuccess.key)
    await reply.startSession(user.id)
    await recordCalendarTokens(deps, [user.id])
    if (!isKnownDevice) {
      reply.setCookie(LOGIN_DEVICE_COOKIE, newLoginDevice(deps.sessionSecret, user.id), {
        path: LOGIN_DEVICE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: deps.env.APP_URL.startsWith('https:'),
        maxAge: LOGIN_DEVICE_MAX_AGE_S,
      })
    }
    return { data: { isAuthenticated: true, user: toSessionUser(user) } }
  })

  route(app, logoutEndpoint, async (_request, reply) => {
    await reply.endSession()
    return { data: { ok: true as const } }
  })

  route(app, signupEndpoint, async (request, reply) => {
    await app.rateLimit.consume(authLimits.signup, limitKeys.address(request))
    const user = await signUp(deps, request.body)
    await reply.startSession(user.id)
    await recordCalendarTokens(deps, [user.id])
    return reply.status(201).send({ data: { isAuthenticated: true, user: toSessionUser(user) } })
  })

  route(app, validateInviteCodeEndpoint, async (request) => {
    await app.rateLimit.consume(authLimits.inviteCode, limitKeys.address(request))
    await checkInviteCode(deps.db, request.body.code)
    return { data: { valid: true as const } }
  })
}
