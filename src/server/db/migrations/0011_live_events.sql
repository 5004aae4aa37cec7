CREATE TABLE "live_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"ref_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "live_events_created_idx" ON "live_events" USING btree ("created_at");--> statement-breakpoint
-- A change a live page shows raises one event per thing changed and transaction: a row here, and
-- its id sent on the channel 'podclub_live' as '<id>:<topic>:<ref>'. NOTIFY is delivered at
-- commit and dropped on rollback, like the row. The trigger runs at commit (deferred), so ids
-- follow commit order closely and no lock is held longer. TG_ARGV: the topic, and the column of
-- the changed row that names the podclub or poll.
CREATE FUNCTION "raise_live_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  topic text := TG_ARGV[0];
  ref integer;
  marker text;
  event_id bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    ref := (to_jsonb(OLD) ->> TG_ARGV[1])::integer;
  ELSE
    ref := (to_jsonb(NEW) ->> TG_ARGV[1])::integer;
  END IF;
  marker := 'podclub.live_' || topic || '_' || ref;
  IF current_setting(marker, true) IS DISTINCT FROM 'on' THEN
    INSERT INTO "live_events" ("topic", "ref_id") VALUES (topic, ref) RETURNING "id" INTO event_id;
    PERFORM pg_notify('podclub_live', event_id || ':' || topic || ':' || ref);
    PERFORM set_config(marker, 'on', true);
    -- A reconnect replays at most an hour; every thousandth event clears what is older.
    IF event_id % 1000 = 0 THEN
      DELETE FROM "live_events" WHERE "created_at" < now() - interval '1 hour';
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "registrations_live_event" AFTER INSERT OR UPDATE OR DELETE ON "registrations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_live_event"('podclub', 'podclub_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "seat_waitlist_live_event" AFTER INSERT OR UPDATE OR DELETE ON "seat_waitlist"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_live_event"('podclub', 'podclub_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "podclubs_live_event" AFTER INSERT OR UPDATE OR DELETE ON "podclubs"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_live_event"('podclub', 'id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "poll_votes_live_event" AFTER INSERT OR DELETE ON "poll_votes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "raise_live_event"('poll', 'poll_id');--> statement-breakpoint
-- A session that ends (logout, a password change, an account deleted) closes its streams in
-- every process: 'end:<id_hash>' on the same channel, nothing stored.
CREATE FUNCTION "notify_session_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('podclub_live', 'end:' || OLD."id_hash");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_end_live_streams" AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_session_end"();
