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
import { createLiveHub, type LiveHub } from './live.hub'
import { startLiveWriter, type LiveWriter } from './live-writer'

/**
 * The hub with its writer process over real connections: an HTTP server of its own answers every
 * request with `hub.open`, and the test raises the database's notifications itself.
 */
let t: TestApp
let hub: LiveHub
let server: http.Server
let url: string
let notify: (payload: string) => void
/** What the hub asked the writer to send, in order: `to` undefined is every stream it holds. */
const sent: Array<{ text: string; to: number[] | undefined }> = []
const clients: EventStreamClient[] = []

beforeAll(async () => {
  t = await buildTestApp()
  hub = createLiveHub({
    db: t.db,
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
  server = http.createServer((req, res) => {
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
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  for (const c of clients) c.close()
  await hub.close()
  await new Promise((resolve) => server.close(resolve))
  await t.close()
})

async function open() {
  const client = await openEventStream(url)
  clients.push(client)
  await client.next((e) => e.event === 'ready', 5_000)
  return client
}
/** How many connections the HTTP server itself still holds. */
const connectionsHeld = () =>
  new Promise<number>((resolve, reject) =>
    server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
  )
const isPodclub = (id: number, seatsLeft: number) => (e: StreamEvent) =>
  e.event === 'podclub' &&
  (e.data as LivePodclub).id === id &&
  (e.data as LivePodclub).seats_left === seatsLeft
let eventId = 1_000

describe('the live streams’ writer process', () => {
  it('holds the streams’ connections and sends each event to all of them as one message', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const streams = [await open(), await open(), await open()]
    // Handed over: this process lets go of its side of each connection.
    await expect.poll(connectionsHeld, { timeout: 10_000 }).toBe(0)
    expect(hub.size()).toBe(3)
    expect(hub.writerPid()).toBeDefined()
    expect(hub.writerPid()).not.toBe(process.pid)

    sent.length = 0
    notify(`${++eventId}:podclub:${podclub.id}`)
    for (const s of streams) await s.next(isPodclub(podclub.id, 9), 5_000)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.to).toBeUndefined()
    expect(sent[0]!.text).toContain(`event: podclub\ndata: {"id":${podclub.id},`)
  })

  it('frees the place of a stream whose client went away', async () => {
    await expect.poll(() => hub.size(), { timeout: 5_000 }).toBe(3)
    clients.pop()!.close()
    await expect.poll(() => hub.size(), { timeout: 5_000 }).toBe(2)
  })

  it('loses the streams of a writer that stopped, and writes new ones itself meanwhile', async () => {
    const host = await createUser(t)
    const podclub = await insertPodclub(t.db, host.id)
    const held = [...clients]
    process.kill(hub.writerPid()!, 'SIGKILL')
    // Their browsers see the stream end, reconnect and replay what they missed.
    for (const s of held) await s.whenEnded(5_000)
    await expect.poll(() => hub.size(), { timeout: 5_000 }).toBe(0)

    const fresh = await open()
    expect(hub.size()).toBe(1)
    expect(await connectionsHeld()).toBe(1)
    notify(`${++eventId}:podclub:${podclub.id}`)
    await fresh.next(isPodclub(podclub.id, 9), 5_000)
  })
})
