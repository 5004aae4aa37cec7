import { type ChildProcess, fork } from 'node:child_process'
import type { Socket } from 'node:net'
import { fileURLToPath } from 'node:url'

/** What the writer is started with (JSON, its one argument). */
export type WriterSettings = {
  /** A comment this often on every stream it holds. */
  heartbeatMs: number
  /** A client that reads this far behind is cut off. */
  maxBufferedBytes: number
  /** How long it waits for its streams to close once the app let go of it. */
  lingerMs: number
}

/** What the app sends the writer, in order: a stream goes before any event meant for it. */
export type ToWriter =
  /** A stream's connection (the message's handle), its answer's headers written. */
  | { type: 'stream'; id: number; chunked: boolean; queued: string[] }
  /** An event, serialized: to the streams listed, or to every stream the writer holds. */
  | { type: 'event'; text: string; to?: number[] }
  /** Ends the streams listed, or all of them. */
  | { type: 'end'; ids?: number[] }

/** What the writer tells the app: that it listens; streams whose clients went, or it cut off. */
export type FromWriter = { type: 'ready' } | { type: 'closed'; ids: number[] }

/** The writer of the built server beside its bundle; from the sources, the TypeScript (tsx). */
function writerProgram(): { file: string; execArgv: string[] } {
  const fromSources = import.meta.url.endsWith('.ts')
  const file = fileURLToPath(
    new URL(fromSources ? './live-writer.main.ts' : './live-writer.js', import.meta.url),
  )
  return { file, execArgv: fromSources ? ['--import', 'tsx'] : [] }
}

export type LiveWriter = {
  /**
   * Hands a stream's connection over: from here on the writer alone writes to it. `queued` are
   * events that came while its own writes were still being flushed. `sent` is told once this
   * process may let go of its side of the connection, or that the handover failed.
   */
  handOver(
    id: number,
    socket: Socket,
    chunked: boolean,
    queued: string[],
    sent: (err: Error | null) => void,
  ): void
  /** An event to the streams listed, or to all the writer holds. */
  send(text: string, to?: number[]): void
  /** Ends the streams listed, or all. */
  end(ids?: number[]): void
  /** Ends its streams and waits for it to exit (killed after `lingerMs` and a second). */
  close(): Promise<void>
  pid: number | undefined
}

export type WriterEvents = {
  /** The writer listens: streams may be handed over. */
  onReady: () => void
  /** Streams whose clients went away, or that the writer cut off. */
  onClosed: (ids: number[]) => void
  /** The writer is gone without being closed, and its streams with it. */
  onExit: (code: number | null) => void
}

/** Starts the writer process. */
export function startLiveWriter(
  settings: WriterSettings,
  { onReady, onClosed, onExit }: WriterEvents,
): LiveWriter {
  const { file, execArgv } = writerProgram()
  const child: ChildProcess = fork(file, [JSON.stringify(settings)], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  let closing = false
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code) => {
      resolve()
      if (!closing) onExit(code)
    })
    child.on('error', () => {
      // Not started at all, so no exit to come; a failed send is seen as the writer's exit.
      if (child.pid !== undefined) return
      resolve()
      if (!closing) onExit(null)
    })
  })
  child.on('message', (message: FromWriter) => {
    if (message.type === 'ready') onReady()
    else onClosed(message.ids)
  })
  const send = (message: ToWriter) => {
    if (child.connected) child.send(message)
  }

  return {
    pid: child.pid,
    handOver(id, socket, chunked, queued, sent) {
      if (!child.connected) return sent(new Error('the live writer is gone'))
      // Its handle, not the socket: handing a net.Socket over marks the HTTP server as sharing
      // connections with the child, and its close() then waits forever once the child has
      // exited. The descriptor is the child's once the message is written; this process then
      // closes its own copy (`sent`).
      const handle = (socket as unknown as { _handle?: unknown })._handle
      if (!handle) return sent(new Error('the connection is closed'))
      const message: ToWriter = { type: 'stream', id, chunked, queued }
      child.send(message, handle as never, {}, (err) => sent(err))
    },
    send(text, to) {
      send(to ? { type: 'event', text, to } : { type: 'event', text })
    },
    end(ids) {
      send(ids ? { type: 'end', ids } : { type: 'end' })
    },
    async close() {
      closing = true
      if (child.connected) {
        send({ type: 'end' })
        child.disconnect()
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), settings.lingerMs + 1_000)
      await exited
      clearTimeout(timer)
    },
  }
}
