import { simpleParser } from 'mailparser'
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
  /** Header values as written (unfolded, encoded words left as they are), by lower-case name. */
  headers: Record<string, string>
  /** Attached files, their content decoded to text (the club attaches only calendar files). */
  attachments: { filename?: string; contentType: string; content: string }[]
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
        parseMessage(raw).then(
          (parsed) => {
            const msg: ReceivedMail = {
              ...parsed,
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
          },
          (err: Error) => {
            receiving -= 1
            callback(err)
          },
        )
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

/**
 * A received message read by a real MIME parser (mailparser), as a mail client would read it:
 * the decoded text and HTML parts, the subject with its encoded words decoded, the attachments.
 */
export async function parseMessage(
  raw: string,
): Promise<Omit<ReceivedMail, 'to' | 'from' | 'raw'>> {
  const parsed = await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true })
  const headers: Record<string, string> = {}
  for (const line of parsed.headerLines) headers[line.key] ??= unfoldedValue(line.line)
  return {
    subject: parsed.subject ?? '',
    text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
    ...(typeof parsed.html === 'string' ? { html: parsed.html } : {}),
    ...(parsed.messageId ? { messageId: parsed.messageId } : {}),
    headers,
    attachments: parsed.attachments.map((a) => ({
      ...(a.filename ? { filename: a.filename } : {}),
      contentType: a.contentType,
      content: a.content.toString('utf8'),
    })),
  }
}

/** `Name: value` as sent, folding undone: the value after the colon. */
function unfoldedValue(line: string): string {
  return line
    .slice(line.indexOf(':') + 1)
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim()
}
