import { sql } from 'drizzle-orm'
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

/**
 * Members and operators. `is_superuser` is the operator flag the server checks on every operator
 * call. A member who deleted their account keeps a row with nothing personal left in it
 * (`deleted_at` set, docs/decisions/019), so what they wrote and took part in stays, shown as
 * from 'a former member'; their username and e-mail address are free for a new sign-up.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    city: text('city').notNull().default(''),
    source: text('source').notNull().default(''),
    memberSince: timestamp('member_since', { withTimezone: true }).notNull().defaultNow(),
    isSuperuser: boolean('is_superuser').notNull().default(false),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** Set by the one-click unsubscribe of a monthly blast; later blasts skip the member. */
    blastsUnsubscribedAt: timestamp('blasts_unsubscribed_at', { withTimezone: true }),
    /**
     * A random key per member from which, with the server's secret, the secret calendar feed URL
     * is derived (`calendar.service.ts`); a new key ('reset link') kills the old URL.
     */
    calendarKey: text('calendar_key')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    /** SHA-256 of the member's current calendar feed token: the feed looks members up by it. */
    calendarTokenHash: text('calendar_token_hash'),
    inviteCodeId: integer('invite_code_id').references((): AnyPgColumn => inviteCodes.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    /** When the member deleted their account; the row is then anonymised. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_username_unique')
      .on(t.username)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex('users_email_lower_unique')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null`),
    // Partial, as the two above: no index here is one a foreign key could use, so the update that
    // anonymises an account locks its row the way any update does, while a seat is given to
    // that member in another transaction (docs/decisions/019).
    uniqueIndex('users_calendar_token_hash_unique')
      .on(t.calendarTokenHash)
      .where(sql`${t.calendarTokenHash} is not null`),
    check(
      'users_username_format',
      sql`${t.deletedAt} is not null or ${t.username} ~ '^[a-z0-9.]{3,24}$'`,
    ),
  ],
)

/** Server-side sessions; the cookie carries the id, the table keeps only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
)

/**
 * Welcome codes are single-use (`used_by_id` is set once); the club code (`reusable`) is the
 * one from CLUB_INVITE_CODE and never records a single user.
 */
export const inviteCodes = pgTable(
  'invite_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    reusable: boolean('reusable').notNull().default(false),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    sentToEmail: text('sent_to_email'),
    usedById: integer('used_by_id').references(() => users.id, { onDelete: 'set null' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** A club code replaced by another CLUB_INVITE_CODE stops working but keeps its history. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invite_codes_code_unique').on(t.code),
    uniqueIndex('invite_codes_used_by_unique').on(t.usedById),
    check('invite_codes_reusable_never_used', sql`not (${t.reusable} and ${t.usedAt} is not null)`),
  ],
)

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    how: text('how').notNull().default(''),
    favoritePodcast: text('favorite_podcast').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('waitlist_email_lower_unique').on(sql`lower(${t.email})`)],
)

/** Reset tokens are stored as SHA-256 hashes, expire, and are used once. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_unique').on(t.tokenHash)],
)

/** Values the app makes once and every process shares, such as a generated session secret. */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
})

/**
 * Versions of cached answers shared by every process (the upcoming feed): a write bumps its row
 * in the same transaction as the change, and a reader compares the version before using a cache.
 */
export const cacheVersions = pgTable('cache_versions', {
  name: text('name').primaryKey(),
  version: integer('version').notNull().default(0),
})

/** Counters of rate-limiter-flexible's Drizzle store, shared by every app process. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
})

/**
 * The first answer to a write a member sent with an `Idempotency-Key` header, kept for a day: a
 * retry with the same key (the same member, the same call) gets this answer again instead of
 * doing the write twice. Written in the transaction of the write itself.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The call and its target, such as `register:12`: a key means nothing elsewhere. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /**
     * The answer, written at the end of the transaction that wrote the key: no other transaction
     * ever sees it empty (a retry racing the first waits on the key until that one commits).
     */
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
)

export { createdAt }
