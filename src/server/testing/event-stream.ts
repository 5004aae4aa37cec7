import http from 'node:http'

/** One server-sent event as a client reads it. */
export type StreamEvent = { id: string | null; event: string; data: unknown; receivedAt: number }

/**
 * Reads `text/event-stream` the way a browser's EventSource does (fields `id`, `event`, `data`;
 * comments ignored), from a real HTTP connection. For tests and the live benchmark.
 */
export async function openEventStream(
  url: string,
  opts: {
    cookie?: string
    lastEventId?: string
    address?: string
    /** The loopback address to connect from (127.x.y.z): a client of its own, without a proxy. */
    localAddress?: string
  } = {},
) {
  const headers: Record<string, string> = { accept: 'text/event-stream' }
  if (opts.cookie) headers.cookie = opts.cookie
  if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId
  if (opts.address) headers['x-forwarded-for'] = opts.address
  // A connection of its own (no pool), so closing the stream closes it as a browser would.
  const request = http.get(url, { headers, agent: false, localAddress: opts.localAddress })
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve)
    request.once('error', reject)
  })
  request.on('error', () => {})
  const status = res.statusCode ?? 0
  const text = async () => {
    let body = ''
    for await (const chunk of res) body += String(chunk)
    return body
  }
  const events: StreamEvent[] = []
  const waiters = new Set<() => void>()
  let ended = false
  let lastEventId: string | null = null

  const pump = async () => {
    if (status !== 200) return
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        buffer += decoder.decode(chunk, { stream: true })
        let at: number
        while ((at = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, at)
          buffer = buffer.slice(at + 2)
          let id: string | null = null
          let event = 'message'
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || line === '') continue
            const colon = line.indexOf(':')
            const field = colon === -1 ? line : line.slice(0, colon)
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
            if (field === 'id') id = value
            else if (field === 'event') event = value
            else if (field === 'data') data.push(value)
          }
          if (id !== null) lastEventId = id
          if (data.length === 0) continue
          events.push({ id, event, data: JSON.parse(data.join('\n')), receivedAt: Date.now() })
          for (const wake of waiters) wake()
        }
      }
    } catch {
      // Aborted by close(), or the server ended the connection.
    } finally {
      ended = true
      for (const wake of waiters) wake()
    }
  }
  const pumping = pump()

  return {
    status,
    headers: res.headers,
    body: status === 200 ? null : await text(),
    events,
    /** The id of the last event read, as a browser would send it on reconnect. */
    lastEventId: () => lastEventId,
    ended: () => ended,
    /** Resolves with the first event (already read or to come) that matches; rejects on timeout. */
    next(match: (e: StreamEvent) => boolean, timeoutMs = 2_000): Promise<StreamEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match)
          if (found) return done(() => resolve(found))
          if (ended) return done(() => reject(new Error('the stream ended')))
        }
        const timer = setTimeout(
          () => done(() => reject(new Error(`no such event within ${timeoutMs} ms`))),
          timeoutMs,
        )
        const done = (then: () => void) => {
          clearTimeout(timer)
          waiters.delete(check)
          then()
        }
        waiters.add(check)
        check()
      })
    },
    /** Resolves once the server has ended the stream; rejects on timeout. */
    async whenEnded(timeoutMs = 2_000) {
      await Promise.race([
        pumping,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the stream is still open')), timeoutMs),
        ),
      ])
    },
    close() {
      request.destroy()
    },
  }
}

export type EventStreamClient = Awaited<ReturnType<typeof openEventStream>>
