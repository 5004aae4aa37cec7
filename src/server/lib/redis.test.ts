import { describe, expect, it, vi } from 'vitest'
import { connectRedis } from './redis'
import { waitUntil } from '../testing/wait'

describe('connectRedis', () => {
  it('logs an unreachable Redis once through the logger, and nothing on stderr', async () => {
    // The test setup fails a test on any console.error: ioredis's own "Unhandled error event".
    const log = { warn: vi.fn(), info: vi.fn() }
    const redis = connectRedis('redis://127.0.0.1:1', log, { retryStrategy: () => 20 })
    try {
      await waitUntil(() => log.warn.mock.calls.length > 0, 5_000, 'the warning')
      // Reconnecting keeps failing: still one line for the outage, not one per attempt.
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(log.warn.mock.calls).toEqual([
        [{ err: { message: expect.stringContaining('ECONNREFUSED') } }, 'redis is unreachable'],
      ])
      // Commands fail at once instead of waiting for a connection.
      await expect(redis.ping()).rejects.toThrow()
    } finally {
      redis.disconnect()
    }
  })
})
