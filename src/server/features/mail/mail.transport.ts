import { createTransport } from 'nodemailer'

export type OutboundMessage = {
  from: string
  to: string
  subject: string
  text: string
  html?: string
  /** `<...@domain>`; stays the same on every attempt, so receivers can spot a resend. */
  messageId: string
}

/** Where the outbox worker hands a message. `send` resolves once the server took it. */
export type MailTransport = {
  send(msg: OutboundMessage): Promise<void>
  close(): void
}

/**
 * Sends through the SMTP server of `smtpUrl` (`smtp://user:pass@host:587`, `smtps://...`),
 * one connection per message. Query parameters of the URL override the options below, so an
 * operator can tune a timeout without a code change.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = createTransport({
    url: smtpUrl,
    // Nodemailer's defaults (2 min to connect, 10 min of silence) would hold a worker batch, and
    // with it a graceful shutdown, far longer than a dead server deserves.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 20_000,
    dnsTimeout: 10_000,
    // Bodies are our own strings; nothing should make the mailer read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  return {
    async send(msg) {
      await transporter.sendMail({
        from: msg.from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        ...(msg.html === undefined ? {} : { html: msg.html }),
        messageId: msg.messageId,
      })
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
          },
        },
        `e-mail to ${msg.to} (no SMTP_URL, logged instead of sent): ${msg.subject}`,
      )
    },
    close() {},
  }
}
