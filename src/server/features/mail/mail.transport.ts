import { createTransport } from 'nodemailer'

export type OutboundMessage = {
  from: string
  to: string
  subject: string
  text: string
  html?: string
  /** Extra headers, such as List-Unsubscribe on a blast. */
  headers?: Record<string, string>
  /** Small text files, such as a podclub's `.ics`. */
  attachments?: { filename: string; contentType: string; content: string }[]
  /** `<...@domain>`; stays the same on every attempt, so receivers can spot a resend. */
  messageId: string
}

/** Where the outbox worker hands a message. `send` resolves once the server took it. */
export type MailTransport = {
  send(msg: OutboundMessage): Promise<void>
  close(): void
}

/**
 * How long one send may take in all, whatever the server does. main.ts exits by force 25 s after
 * a shutdown begins, and the worker's stop() waits for the send in flight: 15 s leaves that wait,
 * recording the outcome and closing the rest ample room. The per-phase timeouts below don't bound
 * the whole on their own, as a server that answers every command just before `socketTimeout`
 * would keep a send going for minutes.
 */
export const SMTP_SEND_DEADLINE_MS = 15_000

/**
 * Sends through the SMTP server of `smtpUrl` (`smtp://user:pass@host:587`, `smtps://...`),
 * one connection per message. Query parameters of the URL override the timeouts below, so an
 * operator can tune one without a code change; the deadline of a whole send stays.
 */
export function createSmtpTransport(
  smtpUrl: string,
  opts: {
    /** Gives up on a send after this long, closing its connection. Default SMTP_SEND_DEADLINE_MS. */
    sendDeadlineMs?: number
  } = {},
): MailTransport {
  const deadlineMs = opts.sendDeadlineMs ?? SMTP_SEND_DEADLINE_MS
  const transporter = createTransport({
    url: smtpUrl,
    // Nodemailer's defaults (2 min to connect, 10 min of silence) would hold a worker batch, and
    // with it a graceful shutdown, far longer than a dead server deserves. connectionTimeout
    // covers the DNS lookup and the greeting too.
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    dnsTimeout: 5_000,
    socketTimeout: 10_000,
    // Bodies are our own strings; nothing should make the mailer read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  return {
    async send(msg) {
      const deadline = AbortSignal.timeout(deadlineMs)
      try {
        await transporter.sendMail({
          from: msg.from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          ...(msg.html === undefined ? {} : { html: msg.html }),
          ...(msg.headers ? { headers: msg.headers } : {}),
          ...(msg.attachments ? { attachments: msg.attachments } : {}),
          messageId: msg.messageId,
          // Aborting closes the connection of this message.
          signal: deadline,
        })
      } catch (err) {
        if (deadline.aborted) {
          throw new Error(`SMTP send gave up after ${deadlineMs} ms`, { cause: err })
        }
        throw err
      }
    },
    close: () => transporter.close(),
  }
}

/**
 * Without SMTP_URL, mail goes to the server log instead, whole text body included: that is how
 * a developer or a small self-hosted install reads a password-reset link.
 */
export function createLogTransport(log: {
  info: (obj: object, msg: string) => void
}): MailTransport {
  return {
    async send(msg) {
      log.info(
        {
          mail: {
            messageId: msg.messageId,
            from: msg.from,
            to: msg.to,
            subject: msg.subject,
            text: msg.text,
            hasHtml: msg.html !== undefined,
            attachments: msg.attachments?.map((a) => a.filename) ?? [],
          },
        },
        `e-mail to ${msg.to} (no SMTP_URL, logged instead of sent): ${msg.subject}`,
      )
    },
    close() {},
  }
}
