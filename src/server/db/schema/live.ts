import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * What changed, in commit order, for the live stream (`GET /events/`, docs/decisions/020): a
 * podclub's seats or status, a poll's votes. Triggers write a row and send its id with
 * NOTIFY in the transaction of the change, so a rolled-back write leaves neither; a client that
 * reconnects with `Last-Event-ID` is sent what changed after it. Rows hold no state, only which
 * thing changed: the stream reads the state as it is when it sends. Old rows are pruned.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'podclub' or 'poll'. */
    topic: text('topic').notNull(),
    refId: integer('ref_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_events_created_idx').on(t.createdAt)],
)
