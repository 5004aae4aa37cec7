import { isApiError } from './api-client'

/**
 * A new `Idempotency-Key` for one action of the member (one click). `crypto.getRandomValues`
 * rather than `randomUUID`, which browsers offer only on https and localhost.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The retry rule of a write sent with an idempotency key: when no answer came (a network error)
 * or the server was briefly unavailable (503), the same request goes again, twice at most. Its
 * key is the same, so a write that did happen is answered again, not done twice.
 */
export function retryUnansweredWrite(failureCount: number, error: unknown): boolean {
  if (!isApiError(error)) return false
  return failureCount < 2 && (error.isNetworkError || error.status === 503)
}
