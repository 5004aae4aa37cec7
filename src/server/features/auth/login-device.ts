import { loginEndpoint } from '#contract/auth'
import { API_PREFIX } from '#contract/endpoint'
import { hmac, randomToken, safeEqual } from '../../lib/tokens'

/**
 * The cookie a browser gets at a successful login: it names the account and a random device id,
 * signed with the server's secret. A login to that same account from that browser is counted per
 * device instead of against the account's ceiling, so strangers who fail at an account from
 * elsewhere cannot lock its owner out (docs/decisions/012). HttpOnly, and sent to the login call
 * only.
 */
export const LOGIN_DEVICE_COOKIE = 'login_device'
export const LOGIN_DEVICE_PATH = `${API_PREFIX}${loginEndpoint.path}`
export const LOGIN_DEVICE_MAX_AGE_S = 365 * 86_400

export type LoginDevice = { userId: number; deviceId: string }

// The signed text names its purpose, so no other signature of the same secret (a CSRF token)
// can pass for a device cookie.
const signed = (secret: string, userId: number, deviceId: string) =>
  hmac(secret, `login-device:${userId}:${deviceId}`)

export function newLoginDevice(secret: string, userId: number): string {
  const deviceId = randomToken(16)
  return `${userId}.${deviceId}.${signed(secret, userId, deviceId)}`
}

/** The device a cookie vouches for, when it is one this server signed; null for anything else. */
export function readLoginDevice(secret: string, cookie: string | undefined): LoginDevice | null {
  if (!cookie || cookie.length > 200) return null
  const [id, deviceId, signature, extra] = cookie.split('.')
  if (!id || !deviceId || !signature || extra !== undefined || !/^[1-9]\d{0,9}$/.test(id)) {
    return null
  }
  const userId = Number(id)
  if (!safeEqual(signed(secret, userId, deviceId), signature)) return null
  return { userId, deviceId }
}
