import { connect, createServer, type Server, type Socket } from 'node:net'

export type TcpProxy = {
  port: number
  /** Resets every open connection (both sides see ECONNRESET); new ones are still let through. */
  cut(): void
  /** Stops listening and resets every open connection: connecting is refused until `resume()`. */
  pause(): Promise<void>
  /** Listens again on the same port. */
  resume(): Promise<void>
  /**
   * Passes no byte either way until `release()`, with every connection left open: the server
   * looks hung (a process stopped with SIGSTOP, a stalled network), not gone.
   */
  hold(): void
  release(): void
  close(): Promise<void>
}

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL, Redis, SMTP), so a test can
 * take the server away from the app and bring it back without touching the server itself.
 */
export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // A reset is what this proxy is for; neither side's error may end the test process.
    socket.on('error', () => {})
  }
  const pairs = new Set<[Socket, Socket]>()
  let held = false
  const flow = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream)
    upstream.pipe(client)
  }
  const onConnection = (client: Socket) => {
    track(client)
    const upstream = connect({ host: target.host ?? '127.0.0.1', port: target.port })
    track(upstream)
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    if (!held) flow(pair)
    client.on('close', () => {
      pairs.delete(pair)
      upstream.destroy()
    })
    upstream.on('close', () => client.resetAndDestroy())
  }
  let server: Server | undefined
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = createServer(onConnection)
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => {
        server = next
        resolve((next.address() as { port: number }).port)
      })
    })
  const cut = () => {
    for (const socket of sockets) socket.resetAndDestroy()
  }
  const stopListening = () =>
    new Promise<void>((resolve) => {
      const current = server
      server = undefined
      if (!current) return resolve()
      current.close(() => resolve())
      cut()
    })
  const port = await listen(0)
  return {
    port,
    cut,
    pause: stopListening,
    resume: async () => {
      if (!server) await listen(port)
    },
    hold: () => {
      held = true
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.pause()
        upstream.pause()
      }
    },
    release: () => {
      if (!held) return
      held = false
      for (const pair of pairs) flow(pair)
    },
    close: stopListening,
  }
}
