import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { createdAt } from './users'

/** A small text file carried by an outbox message (a calendar entry). */
export type MailAttachment = { filename: string; contentType: string; content: string }

export const outboxStatus = pgEnum('outbox_status', ['pending', 'sending', 'delivered', 'failed'])

/**
 * The e-mail outbox. A message is inserted in the transaction of the change that causes it and
 * delivered by the worker; `locked_until` lets several processes share the work.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    kind: text('kind').notNull(),
    /**
     * Set for mail that must go out at most once per cause (a reminder per podclub, kind and
     * recipient; a blast per blast and member): the unique index refuses a second row.
     */
    dedupeKey: text('dedupe_key'),
    /** Extra headers of this message, such as List-Unsubscribe on a blast. */
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** Files sent with the message, such as a podclub's `.ics`; cleared with the bodies. */
    attachments: jsonb('attachments').$type<MailAttachment[]>(),
    /**
     * The random part of the message's Message-ID, drawn once when the row is written: the same on
     * every attempt (a resend after a crash carries the first send's ID), never the same for two
     * messages, even across installs or a database that was reset.
     */
    messageKey: text('message_key')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    status: outboxStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('outbox_due_idx').on(t.status, t.nextAttemptAt),
    uniqueIndex('outbox_dedupe_key_unique').on(t.dedupeKey),
    index('outbox_created_idx').on(t.createdAt),
    check('outbox_attempts_non_negative', sql`${t.attempts} >= 0`),
  ],
)

/** One row per delivery attempt: the control panel's e-mail activity reads these. */
export const outboxAttempts = pgTable(
  'outbox_attempts',
  {
    id: serial('id').primaryKey(),
    messageId: integer('message_id')
      .notNull()
      .references(() => outboxMessages.id, { onDelete: 'cascade' }),
    success: boolean('success').notNull(),
    error: text('error'),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_attempts_message_idx').on(t.messageId)],
)
