import { createServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createSmtpTransport, SMTP_SEND_DEADLINE_MS } from './mail.transport'

/** The 25 s after which main.ts exits by force once a shutdown begins. */
const SHUTDOWN_LIMIT_MS = 25_000

const message = {
  from: 'podclub <noreply@podclub.test>',
  to: 'ada@example.org',
  subject: 'Reset your password',
  text: 'Open the link',
  messageId: '<outbox-1.abc@podclub.test>',
}

type StuckServer = { url: string; closed: Promise<void>; stop(): Promise<void> }

/**
 * A TCP server that accepts connections and then does what a stuck SMTP server does: with
 * `greet`, it sends the greeting and never answers a command; without, it never says a word.
 * `closed` resolves once the client has closed its (first) connection.
 */
async function stuckServer(opts: { greet: boolean }): Promise<StuckServer> {
  const sockets = new Set<Socket>()
  let markClosed!: () => void
  const closed = new Promise<void>((resolve) => (markClosed = resolve))
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    // Reads (and ignores) what the client says, so that its closing the connection is seen.
    socket.resume()
    socket.on('close', () => {
      sockets.delete(socket)
      markClosed()
    })
    if (opts.greet) socket.write('220 stuck.test ESMTP\r\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `smtp://127.0.0.1:${port}`,
    closed,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

let servers: StuckServer[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()))
  servers = []
})

async function timeSend(url: string, opts?: Parameters<typeof createSmtpTransport>[1]) {
  const transport = createSmtpTransport(url, opts)
  const started = performance.now()
  try {
    const error = await transport.send(message).then(
      () => undefined,
      (err: unknown) => err as Error,
    )
    return { error, ms: performance.now() - started }
  } finally {
    transport.close()
  }
}

describe('createSmtpTransport', () => {
  it('gives up on a server that never greets well within the shutdown limit', async () => {
    const server = await stuckServer({ greet: false })
    servers.push(server)

    const { error, ms } = await timeSend(server.url)

    expect(error).toBeInstanceOf(Error)
    // The connection phase, greeting included, is bounded at 5 s.
    expect(ms).toBeLessThan(8_000)
    await server.closed
  })

  it('gives up on a server that stops answering once its send deadline passes', async () => {
    const server = await stuckServer({ greet: true })
    servers.push(server)

    const { error, ms } = await timeSend(server.url, { sendDeadlineMs: 300 })

    expect(error?.message).toBe('SMTP send gave up after 300 ms')
    expect(ms).toBeLessThan(2_000)
    // The connection is closed, not left to linger until the socket timeout.
    await server.closed
  })

  it('ends every send, with its outcome still to record, before the forced exit', () => {
    expect(SMTP_SEND_DEADLINE_MS).toBeLessThanOrEqual(SHUTDOWN_LIMIT_MS - 10_000)
  })
})
