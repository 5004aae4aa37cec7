import {
  foreignKey,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { createdAt, users } from './users'

export const polls = pgTable('polls', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
})

export const pollOptions = pgTable(
  'poll_options',
  {
    id: serial('id').primaryKey(),
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    podcast: text('podcast').notNull().default(''),
    description: text('description').notNull().default(''),
    link: text('link').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [unique('poll_options_poll_id_id_unique').on(t.pollId, t.id)],
)

/** One code per (poll, e-mail), stored hashed; it casts one vote, once. */
export const voteCodes = pgTable(
  'vote_codes',
  {
    id: serial('id').primaryKey(),
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('vote_codes_hash_unique').on(t.codeHash),
    uniqueIndex('vote_codes_poll_email_unique').on(t.pollId, sql`lower(${t.email})`),
  ],
)

export const pollVotes = pgTable(
  'poll_votes',
  {
    id: serial('id').primaryKey(),
    pollId: integer('poll_id').notNull(),
    optionId: integer('option_id').notNull(),
    voteCodeId: integer('vote_code_id')
      .notNull()
      .references(() => voteCodes.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('poll_votes_vote_code_unique').on(t.voteCodeId),
    index('poll_votes_poll_idx').on(t.pollId),
    // The option must belong to the poll the vote is for.
    foreignKey({
      columns: [t.pollId, t.optionId],
      foreignColumns: [pollOptions.pollId, pollOptions.id],
      name: 'poll_votes_option_of_poll_fk',
    }).onDelete('cascade'),
  ],
)
