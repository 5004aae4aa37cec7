import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LivePodclub } from '#contract/live'
import {
  openEventStream,
  type EventStreamClient,
  type StreamEvent,
} from '../../testing/event-stream'
import { buildTestApp, createUser, type TestApp } from '../../testing/test-app'
import { insertPodclub } from '../podclubs/podclubs.fixtures'
import { createLiveHub } from './live.hub'
import { startLiveWriter, type LiveWriter } from './live-writer'
import { createFeedCache } from '../podclubs/podclubs.feed-cache'

/**
 * The hub with its writer process over real connections: an HTTP server of its own answers every
 * request with `hub.open`, and the test raises the database's notifications itself.
 */
let t: TestApp
const clients: EventStreamClient[] = []
const closers: Array<() => Promise<void>> = []

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  for (const c of clients) c.close()
  for (const close of closers) await close()
  await t.close()
})

async function serveHub() {
  let notify: (payload: string) => void = () => {}
  /** What the hub asked the writer to send, in order: `to` undefined is every stream it holds. */
  const sent: Array<{ text: string; to: number[] | undefined }> = []
  const hub = createLiveHub({
    db: t.db,
    feed: createFeedCache(t.db),
    listen: async (_channel, handlers) => {
      notify = handlers.onPayload
      return async () => {}
    },
    now: () => new Date(),
    maxStreams: 100,
    startWriter: (settings, events): LiveWriter => {
      const writer = startLiveWriter(settings, events)
      return {
        ...writer,
        send(text, to) {
          sent.push({ text, to })
          writer.send(text, to)
        },
      }
    },
  })
  const server = http.createServer((req, res) => {
    const request = {
      headers: req.headers,
      ip: req.socket.remoteAddress,
      user: null,
      sessionHash: null,
      sessionExpiresAt: null,
    } as unknown as FastifyRequest
    const reply = { raw: res, hijack: () => {}, getHeaders: () => ({}) } as unknown as FastifyReply
    hub.open(request, reply).catch((err: Error) => res.destroy(err))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await hub.close()
    await new Promise((resolve) => server.close(resolve))
  }
  closers.push(close)
  return {
    hub,
    sent,
    close,
    notify: (payload: string) => notify(payload),
    async open() {
      const client = await openEventStream(url)
      clients.push(client)
      await client.next((e) => e.event === 'ready', 5_000)
      return client
    },
    /** How many connections the HTTP server itself still holds. */
    connectionsHeld: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      ),
  }
}

const showing = (id: number, seatsLeft: number) => (e: StreamEvent) =>
  e.event === 'podclub' &&
  (e.data as LivePodclub).id === id &&
  (e.data as LivePodclub).seats_left === seatsLeft
/** Whether a process of that id still runs. */
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
let eventId = 1_000

describe('the live streams’ writer process', () => {
  let served: Awaited<ReturnType<typeof serveHub>>
  let streams: EventStreamClient[]
  let pid: number

  it('holds the streams’ connections, and is sent each event once for all of them', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    served = await serveHub()
    streams = [await served.open(), await served.open(), await served.open()]
    // Handed over: this process lets go of its side of each connection.
    await expect.poll(served.connectionsHeld, { timeout: 10_000 }).toBe(0)
    expect(served.hub.size()).toBe(3)
    pid = served.hub.writerPid()!
    expect(pid).toBeDefined()
    expect(pid).not.toBe(process.pid)

    served.sent.length = 0
    served.notify(`${++eventId}:podclub:${podclub.id}`)
    for (const s of streams) await s.next(showing(podclub.id, 9), 5_000)
    expect(served.sent).toHaveLength(1)
    expect(served.sent[0]!.to).toBeUndefined()
    expect(served.sent[0]!.text).toContain(`event: podclub\ndata: {"id":${podclub.id},`)
  })

  it('frees the place of a stream whose client went away', async () => {
    streams.pop()!.close()
    await expect.poll(() => served.hub.size(), { timeout: 5_000 }).toBe(2)
  })

  it('ends the streams it holds, and exits, when the hub closes', async () => {
    await served.close()
    for (const s of streams) await s.whenEnded(5_000)
    expect(isRunning(pid)).toBe(false)
  })

  it('loses the streams of a writer that stopped, and writes new ones itself meanwhile', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const served = await serveHub()
    const held = [await served.open(), await served.open()]
    await expect.poll(served.connectionsHeld, { timeout: 10_000 }).toBe(0)
    process.kill(served.hub.writerPid()!, 'SIGKILL')
    // Their browsers see the stream end, reconnect and replay what they missed.
    for (const s of held) await s.whenEnded(5_000)
    await expect.poll(() => served.hub.size(), { timeout: 5_000 }).toBe(0)

    const fresh = await served.open()
    expect(served.hub.size()).toBe(1)
    expect(await served.connectionsHeld()).toBe(1)
    served.notify(`${++eventId}:podclub:${podclub.id}`)
    await fresh.next(showing(podclub.id, 9), 5_000)
  })
})
