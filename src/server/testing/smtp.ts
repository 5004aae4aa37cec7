import { SMTPServer, type SMTPServerAddress } from 'smtp-server'

export type ReceivedMail = {
  /** Envelope recipients (RCPT TO), which is where the message really went. */
  to: string[]
  /** Envelope sender (MAIL FROM). */
  from: string
  subject: string
  /** The text/plain body, decoded, with \n line ends. Empty when the message has none. */
  text: string
  /** The text/html body, decoded, when the message has one. */
  html?: string
  messageId?: string
  headers: Record<string, string>
  /** The message exactly as the client sent it, CRLF line ends. */
  raw: string
}

export type TestSmtp = {
  /** For SMTP_URL or createSmtpTransport(): `smtp://127.0.0.1:PORT`. */
  url: string
  port: number
  /** Every message received, oldest first. Tests may empty it with `messages.length = 0`. */
  messages: ReceivedMail[]
  /** Messages whose data arrived but which are not accepted yet (see acceptDelayMs). */
  readonly receiving: number
  /** Resolves with the first received message (already there or still to come) that matches. */
  waitFor(predicate: (msg: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  /** Closes the server; the port can be listened on again right away. */
  stop(): Promise<void>
}

/**
 * A real SMTP server on 127.0.0.1 for tests and e2e: plain text (no STARTTLS), any or no
 * credentials accepted. Port 0 picks a free port; passing the port of a stopped server brings
 * "the same" server back, which is how tests simulate an SMTP outage.
 */
export async function startTestSmtp(
  opts: {
    port?: number
    /** Holds each message this long before accepting it, to catch a send in flight. */
    acceptDelayMs?: number
  } = {},
): Promise<TestSmtp> {
  const messages: ReceivedMail[] = []
  let receiving = 0
  const waiters = new Set<(msg: ReceivedMail) => void>()

  const server = new SMTPServer({
    authOptional: true,
    // Lets an SMTP_URL with credentials log in without TLS, as e2e setups may pass one.
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Nodemailer closes its connection after each message; don't let a stray one hold stop().
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' })
    },
    onData(stream, session, callback) {
      receiving += 1
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', (err: Error) => callback(err))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const envelope = session.envelope
        const mailFrom = envelope.mailFrom
        const msg: ReceivedMail = {
          ...parseMessage(raw),
          to: envelope.rcptTo.map((a: SMTPServerAddress) => a.address),
          from: mailFrom ? mailFrom.address : '',
          raw,
        }
        const accept = () => {
          receiving -= 1
          messages.push(msg)
          for (const waiter of [...waiters]) waiter(msg)
          callback()
        }
        if (opts.acceptDelayMs) setTimeout(accept, opts.acceptDelayMs)
        else accept()
      })
    },
  })
  // Connection errors (a client hanging up mid-session) are emitted here; a test server
  // shrugs them off instead of crashing the test process.
  server.on('error', () => {})

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err)
    server.server.once('error', onError)
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', onError)
      resolve()
    })
  })
  const address = server.server.address()
  if (!address || typeof address === 'string') throw new Error('test SMTP server has no port')
  const port = address.port

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get receiving() {
      return receiving
    },
    waitFor(predicate, timeoutMs = 5_000) {
      const found = messages.find(predicate)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter)
          reject(new Error(`no matching e-mail arrived within ${timeoutMs} ms`))
        }, timeoutMs)
        const waiter = (msg: ReceivedMail) => {
          if (!predicate(msg)) return
          clearTimeout(timer)
          waiters.delete(waiter)
          resolve(msg)
        }
        waiters.add(waiter)
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

type ParsedPart = {
  subject: string
  text: string
  html?: string
  messageId?: string
  headers: Record<string, string>
}

/** Just enough MIME for what nodemailer writes: headers, multipart, base64 and quoted-printable. */
export function parseMessage(raw: string): ParsedPart {
  const { headers, body } = splitEntity(raw)
  const bodies = collectBodies(headers, body)
  const messageId = headers['message-id']?.trim()
  return {
    subject: decodeHeaderWords(headers.subject ?? ''),
    text: bodies.text ?? '',
    ...(bodies.html === undefined ? {} : { html: bodies.html }),
    ...(messageId ? { messageId } : {}),
    headers,
  }
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw)
  const head = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ''
  const headers: Record<string, string> = {}
  // Folded header lines start with whitespace and belong to the line before.
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    headers[name] ??= line.slice(colon + 1).trim()
  }
  return { headers, body }
}

function collectBodies(
  headers: Record<string, string>,
  body: string,
): { text?: string; html?: string } {
  const contentType = headers['content-type'] ?? 'text/plain'
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase()

  if (mediaType.startsWith('multipart/')) {
    const boundary = headerParam(contentType, 'boundary')
    if (!boundary) return {}
    const result: { text?: string; html?: string } = {}
    for (const part of splitMultipart(body, boundary)) {
      const entity = splitEntity(part)
      const found = collectBodies(entity.headers, entity.body)
      result.text ??= found.text
      result.html ??= found.html
    }
    return result
  }
  if (mediaType !== 'text/plain' && mediaType !== 'text/html') return {}
  if (/attachment/i.test(headers['content-disposition'] ?? '')) return {}

  const bytes = decodeTransfer(body, headers['content-transfer-encoding'] ?? '7bit')
  const text = decodeCharset(bytes, headerParam(contentType, 'charset') ?? 'utf-8').replace(
    /\r\n/g,
    '\n',
  )
  return mediaType === 'text/plain' ? { text } : { html: text }
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = []
  const delimiter = `--${boundary}`
  const lines = body.split(/\r?\n/)
  let current: string[] | undefined
  for (const line of lines) {
    const trimmed = line.trimEnd()
    if (trimmed === `${delimiter}--`) break
    if (trimmed === delimiter) {
      if (current) parts.push(current.join('\r\n'))
      current = []
      continue
    }
    current?.push(line)
  }
  if (current) parts.push(current.join('\r\n'))
  return parts
}

function headerParam(value: string, name: string): string | undefined {
  const re = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i')
  const match = re.exec(value)
  return match ? (match[1] ?? match[2]) : undefined
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64')
    case 'quoted-printable':
      return decodeQuotedPrintable(body)
    default:
      return Buffer.from(body, 'utf8')
  }
}

/** RFC 2045 6.7: `=` at a line end is a soft break, `=XX` is one byte. */
export function decodeQuotedPrintable(input: string): Buffer {
  const unfolded = input.replace(/[ \t]*=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < unfolded.length; i++) {
    const ch = unfolded[i]!
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(unfolded.slice(i + 1, i + 3))) {
      bytes.push(parseInt(unfolded.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'))
    }
  }
  return Buffer.from(bytes)
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    return bytes.toString('utf8')
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), as nodemailer writes non-ASCII subjects. */
export function decodeHeaderWords(value: string): string {
  return (
    value
      // Whitespace between two encoded words is folding, not content.
      .replace(/(\?=)\s+(?==\?)/g, '$1')
      .replace(
        /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
        (_all, charset: string, enc: string, text: string) => {
          const bytes =
            enc.toUpperCase() === 'B'
              ? Buffer.from(text, 'base64')
              : decodeQuotedPrintable(text.replace(/_/g, ' '))
          return decodeCharset(bytes, charset.split('*')[0]!)
        },
      )
  )
}
