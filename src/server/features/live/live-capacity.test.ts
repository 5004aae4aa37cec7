import { EventEmitter } from 'node:events'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEventStream } from '../../testing/event-stream'
import { buildTestApp, type TestApp } from '../../testing/test-app'
import { liveStreamsCap, MIN_HEADROOM_FILES, openFilesLimit } from './live-capacity'
import {
  createLiveHub,
  FANOUT_SLICE,
  PROCESS_CAP_RETRY_AFTER_S,
  STREAMS_PER_ADDRESS,
} from './live.hub'
import { createFeedCache } from '../podclubs/podclubs.feed-cache'

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 4096                 files
Max locked memory         8388608              8388608              bytes
`

describe('the cap on live streams of one process', () => {
  it('reads the soft limit on open files, and leaves room for everything else', () => {
    expect(openFilesLimit(LIMITS)).toBe(1024)
    expect(openFilesLimit('no such line')).toBeUndefined()
    expect(openFilesLimit(LIMITS.replace('1024   ', 'unlimited'))).toBeUndefined()
    expect(liveStreamsCap(undefined, 1024)).toBe(768)
    expect(liveStreamsCap(undefined, 256)).toBe(256 - MIN_HEADROOM_FILES)
    expect(liveStreamsCap(undefined, 20_000)).toBe(15_000)
    expect(liveStreamsCap(undefined, 1_048_576)).toBe(20_000)
    expect(liveStreamsCap(undefined, 100)).toBe(1)
    // The setting wins.
    expect(liveStreamsCap(42, 1024)).toBe(42)
  })
})

describe('GET /events/ at the caps', () => {
  const METRICS_TOKEN = 'metrics-token-0123456789'
  let t: TestApp
  let url: string
  const held: Array<{ close: () => void }> = []
  beforeAll(async () => {
    t = await buildTestApp({ env: { LIVE_STREAMS_MAX: '25', TRUST_PROXY: '1', METRICS_TOKEN } })
    url = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/events/`
  })
  afterAll(async () => {
    for (const s of held) s.close()
    await t.close()
  })
  const open = async (address: string) => {
    const s = await openEventStream(url, { address })
    held.push(s)
    return s
  }
  const refusals = async (reason: string) => {
    const text = (await t.app.metrics.render()).text
    const line = new RegExp(
      `^podclub_live_streams_refused_total\\{reason="${reason}"\\} (\\d+)$`,
      'm',
    )
    return Number(line.exec(text)?.[1] ?? 0)
  }

  it('counts the addresses of one IPv6 /64 as one', async () => {
    const answers = []
    for (let i = 1; i <= STREAMS_PER_ADDRESS + 1; i++) {
      answers.push((await open(`2001:db8:7:8::${i.toString(16)}`)).status)
    }
    expect(answers.slice(0, STREAMS_PER_ADDRESS)).toEqual(Array(STREAMS_PER_ADDRESS).fill(200))
    expect(answers.at(-1)).toBe(429)
    // Another /64 is another address.
    expect((await open('2001:db8:7:9::1')).status).toBe(200)
    expect(await refusals('address')).toBe(1)
  })

  it('answers 503 with Retry-After past the cap of the process, counted in the metrics', async () => {
    // 21 are open; up to the cap of 25 from other addresses, then one more.
    for (let i = 0; i < 4; i++) expect((await open(`198.51.100.${i + 1}`)).status).toBe(200)
    const refused = await open('198.51.100.99')
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe(String(PROCESS_CAP_RETRY_AFTER_S))
    expect(JSON.parse(refused.body!)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
    expect(await refusals('process')).toBe(1)
    // Ordinary requests are still answered.
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200)
    // One closed, one more may open.
    held.pop()
    held.pop()!.close()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await open('198.51.100.98')).status).toBe(200)
  })
})

/** A response the hub can hold as a stream, recording what it is sent. */
class FakeResponse extends EventEmitter {
  destroyed = false
  writableEnded = false
  writableLength = 0
  socket = null
  sent: Array<string | Buffer> = []
  constructor(private onWrite: (text: string) => void) {
    super()
  }
  writeHead() {}
  write(text: string | Buffer) {
    this.sent.push(text)
    this.onWrite(text.toString())
    return true
  }
  end() {
    this.writableEnded = true
    this.emit('close')
  }
  destroy() {
    this.destroyed = true
  }
}

describe('the fan-out of an event', () => {
  it('lets other work run between slices of streams, not after every stream', async () => {
    const t = await buildTestApp()
    try {
      let onPayload: ((payload: string) => void) | undefined
      const hub = createLiveHub({
        db: t.db,
        feed: createFeedCache(t.db),
        listen: async (_channel, handlers) => {
          onPayload = handlers.onPayload
          return async () => {}
        },
        now: () => new Date(),
        maxStreams: 10_000,
      })
      const streams = 3 * FANOUT_SLICE
      let reached = 0
      let reachedWhenOthersRan: number | undefined
      const onWrite = (text: string) => {
        if (!text.includes('event: podclub')) return
        reached += 1
        // Work that arrives as the fan-out begins: a request, a timer.
        if (reached === 1) setImmediate(() => (reachedWhenOthersRan = reached))
      }
      for (let i = 0; i < streams; i++) {
        const request = {
          headers: { accept: 'text/event-stream' },
          ip: `10.90.${i >> 8}.${i & 255}`,
          user: null,
          sessionHash: null,
          sessionExpiresAt: null,
        } as unknown as FastifyRequest
        const reply = {
          raw: new FakeResponse(onWrite),
          hijack: () => {},
          getHeaders: () => ({}),
        } as unknown as FastifyReply
        await hub.open(request, reply)
      }
      expect(hub.size()).toBe(streams)
      onPayload!('1:podclub:999999')
      await expect.poll(() => reached, { timeout: 5_000 }).toBe(streams)
      expect(reachedWhenOthersRan).toBeDefined()
      expect(reachedWhenOthersRan!).toBeLessThanOrEqual(FANOUT_SLICE)
      expect(reachedWhenOthersRan!).toBeLessThan(streams)
      await hub.close()
    } finally {
      await t.close()
    }
  })
})
