import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { createdAt, users } from './users'

export const podclubStatus = pgEnum('podclub_status', ['upcoming', 'completed', 'cancelled'])
export const podclubLocation = pgEnum('podclub_location', ['zoom', 'nyc'])

export const podcasts = pgTable(
  'podcasts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    pictureLink: text('picture_link').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('podcasts_name_lower_unique').on(sql`lower(${t.name})`)],
)

/** One scheduled discussion of one episode; 9 reservable seats, the podmeister takes none. */
export const podclubs = pgTable(
  'podclubs',
  {
    id: serial('id').primaryKey(),
    podcastId: integer('podcast_id')
      .notNull()
      .references(() => podcasts.id, { onDelete: 'restrict' }),
    podmeisterId: integer('podmeister_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    episodeTitle: text('episode_title').notNull(),
    episodeNumber: text('episode_number').notNull().default(''),
    status: podclubStatus('status').notNull().default('upcoming'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    location: podclubLocation('location'),
    zoomLink: text('zoom_link').notNull().default(''),
    keywordOne: text('keyword_one').notNull().default(''),
    keywordTwo: text('keyword_two').notNull().default(''),
    keywordThree: text('keyword_three').notNull().default(''),
    linkOne: text('link_one').notNull().default(''),
    linkTwo: text('link_two').notNull().default(''),
    linkThree: text('link_three').notNull().default(''),
    description: text('description').notNull().default(''),
    podmeisterNote: text('podmeister_note').notNull().default(''),
    chatlog: text('chatlog').notNull().default(''),
    oneWeekNoticeSent: boolean('one_week_notice_sent').notNull().default(false),
    oneDayNoticeSent: boolean('one_day_notice_sent').notNull().default(false),
    tenMinNoticeSent: boolean('ten_min_notice_sent').notNull().default(false),
    /**
     * When an operator last sent the notice by hand ('Send Notice'): it takes the place of the
     * reminders whose moment had come by then, never of one still ahead.
     */
    manualNoticeSentAt: timestamp('manual_notice_sent_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** How long the discussion lasts, for calendar entries. */
    durationMinutes: integer('duration_minutes').notNull().default(60),
    /**
     * The iCalendar SEQUENCE of the podclub's entry: raised whenever its time or place changes, so
     * calendars replace the entry they hold (same UID) with the newer one.
     */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('podclubs_duration_positive', sql`${t.durationMinutes} between 1 and 1440`),
    index('podclubs_status_starts_idx').on(t.status, t.startsAt),
    index('podclubs_podmeister_idx').on(t.podmeisterId),
    check(
      'podclubs_completed_has_time',
      sql`(${t.status} = 'completed') = (${t.completedAt} is not null)`,
    ),
  ],
)

/** A reserved seat. Cancelling deletes the row; the seat cap is checked under a row lock. */
export const registrations = pgTable(
  'registrations',
  {
    id: serial('id').primaryKey(),
    podclubId: integer('podclub_id')
      .notNull()
      .references(() => podclubs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The seat came from the seat waitlist: a member's live stream tells them they are in even
     * when their joining the line and the freed seat reach it as one change.
     */
    fromSeatWaitlist: boolean('from_seat_waitlist').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('registrations_podclub_user_unique').on(t.podclubId, t.userId),
    index('registrations_user_idx').on(t.userId),
  ],
)

/**
 * The seat waitlist of a full podclub (not the club's invite waitlist, `waitlist_entries`): who
 * is waiting for a seat, first come first served by `id`. Rows are written under the podclub's
 * row lock, so ids follow the order members joined in. A freed seat goes to the lowest id.
 */
export const seatWaitlist = pgTable(
  'seat_waitlist',
  {
    id: serial('id').primaryKey(),
    podclubId: integer('podclub_id')
      .notNull()
      .references(() => podclubs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('seat_waitlist_podclub_user_unique').on(t.podclubId, t.userId),
    index('seat_waitlist_podclub_order_idx').on(t.podclubId, t.id),
    index('seat_waitlist_user_idx').on(t.userId),
  ],
)

export const hindsights = pgTable(
  'hindsights',
  {
    id: serial('id').primaryKey(),
    podclubId: integer('podclub_id')
      .notNull()
      .references(() => podclubs.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('hindsights_podclub_idx').on(t.podclubId),
    check('hindsights_message_not_blank', sql`length(btrim(${t.message})) > 0`),
  ],
)

export const suggestions = pgTable('suggestions', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  podcastLink: text('podcast_link').notNull(),
  reason: text('reason').notNull().default(''),
  createdAt: createdAt(),
})

export const feedback = pgTable('feedback', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  podcastLink: text('podcast_link').notNull().default(''),
  description: text('description').notNull(),
  createdAt: createdAt(),
})
