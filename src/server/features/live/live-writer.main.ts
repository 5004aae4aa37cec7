// The live streams' writer: a child process of the app (live-writer.ts) that holds the
// connections of its open streams and writes the events to them, so that writing one event to
// thousands of sockets never holds the app's event loop (docs/decisions/034). It knows nothing of
// the database, sessions or caps: the app sends it each stream's connection once its headers are
// written, then the events, already serialized, and which streams to end.
import net from 'node:net'
import type { FromWriter, ToWriter, WriterSettings } from './live-writer'

const settings = JSON.parse(process.argv[2] ?? '{}') as WriterSettings

type Held = { socket: net.Socket; chunked: boolean }
const streams = new Map<number, Held>()
/** Streams gone since the app was last told, sent once per turn of the loop. */
const closed: number[] = []

function tell(message: FromWriter) {
  // The app may have let go meanwhile (it is stopping): then nobody needs to hear.
  if (process.connected) process.send!(message, undefined, {}, () => {})
}

function onClosed(id: number) {
  if (closed.length === 0) setImmediate(() => tell({ type: 'closed', ids: closed.splice(0) }))
  closed.push(id)
}

/** One event's bytes, built once for every stream: as they are, and as a chunk of a chunked answer. */
function bytesOf(text: string) {
  const raw = Buffer.from(text)
  const chunked = Buffer.concat([
    Buffer.from(`${raw.length.toString(16)}\r\n`),
    raw,
    Buffer.from('\r\n'),
  ])
  return (held: Held) => (held.chunked ? chunked : raw)
}

function write(held: Held, bytes: Buffer) {
  const { socket } = held
  if (socket.destroyed || socket.writableEnded) return
  // A client that reads this far behind is cut off; it reconnects and catches up by replay.
  if (socket.writableLength > settings.maxBufferedBytes) {
    socket.destroy()
    return
  }
  socket.write(bytes)
}

function end(id: number) {
  const held = streams.get(id)
  if (!held) return
  streams.delete(id)
  const { socket } = held
  if (socket.destroyed || socket.writableEnded) return
  // The last chunk of a chunked answer, then the connection: the browser reconnects.
  if (held.chunked) socket.end('0\r\n\r\n')
  else socket.end()
}

function take(id: number, chunked: boolean, queued: string[], handle: unknown) {
  if (!handle) {
    // The connection closed before it could be handed over.
    onClosed(id)
    return
  }
  // As node's own child_process makes a socket of a handle it receives (not in its types).
  const socket = new net.Socket({
    handle,
    readable: true,
    writable: true,
  } as net.SocketConstructorOpts)
  const held: Held = { socket, chunked }
  streams.set(id, held)
  socket.on('error', () => {})
  socket.once('close', () => {
    streams.delete(id)
    onClosed(id)
  })
  // Nothing is expected from the client; reading is how its going away is seen.
  socket.resume()
  for (const text of queued) write(held, bytesOf(text)(held))
}

process.on('message', (message: ToWriter, handle: unknown) => {
  switch (message.type) {
    case 'stream':
      take(message.id, message.chunked, message.queued, handle)
      break
    case 'event': {
      const bytes = bytesOf(message.text)
      if (message.to) {
        for (const id of message.to) {
          const held = streams.get(id)
          if (held) write(held, bytes(held))
        }
      } else {
        for (const held of streams.values()) write(held, bytes(held))
      }
      break
    }
    case 'end':
      for (const id of message.ids ?? [...streams.keys()]) end(id)
      break
  }
})

tell({ type: 'ready' })

// A comment this often keeps proxies from closing a quiet stream.
const keepAlive = bytesOf(': keep-alive\n\n')
setInterval(() => {
  for (const held of streams.values()) write(held, keepAlive(held))
}, settings.heartbeatMs).unref()

// A stop signal to the whole group (Ctrl+C, a service manager) is the app's to act on: it ends
// the streams through this process, then lets go of it.
process.on('SIGINT', () => {})
process.on('SIGTERM', () => {})

// The app stopped, or lost its hold on this process: the streams go with it and their browsers
// reconnect, to the app that comes next. Writes already given to the sockets are sent first.
process.on('disconnect', () => {
  for (const id of [...streams.keys()]) end(id)
  setTimeout(() => process.exit(0), settings.lingerMs).unref()
})
