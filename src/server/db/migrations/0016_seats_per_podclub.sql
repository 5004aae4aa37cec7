-- Seats are versioned per podclub and per member, by the one function "bump_cache_version" of 0012
-- and 0015. A seat change raised the one 'seats' row: every podclub's seats were read again after
-- any seat, every member's profile and cred too, and every seat-changing transaction in the club
-- locked that row for its commit. Now a trigger may name a column of the changed row as its second
-- argument, and the row raised is '<name>:<value of that column>': 'seats:12' for podclub 12's
-- seats and seat waitlist, 'member_seats:7' for the seats member 7 holds (an update that moves a
-- row raises both its old and its new one). A truncate has no row to name: it raises '<name>'
-- alone, which every cached read of one of the rows depends on too.
--
-- A transaction still raises each row once. The rows it raised are listed, in the transaction, in
-- the setting 'podclub.versions_raised' (',seats:12,member_seats:7,'): on PGlite, which serves one
-- process, the process reads them before the commit and knows the versions its write leaves
-- without asking again (db/pglite-writes.ts).
CREATE OR REPLACE FUNCTION "bump_cache_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  names text[];
  raising text;
  raised text;
BEGIN
  IF TG_NARGS > 1 THEN
    -- A key that is null (no such column) raises the whole set's row rather than nothing.
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      names := names || coalesce(TG_ARGV[0] || ':' || (to_jsonb(OLD) ->> TG_ARGV[1]), TG_ARGV[0]);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      names := names || coalesce(TG_ARGV[0] || ':' || (to_jsonb(NEW) ->> TG_ARGV[1]), TG_ARGV[0]);
    END IF;
  ELSE
    names := ARRAY[TG_ARGV[0]];
  END IF;
  FOREACH raising IN ARRAY names LOOP
    raised := coalesce(nullif(current_setting('podclub.versions_raised', true), ''), ',');
    IF position(',' || raising || ',' IN raised) = 0 THEN
      INSERT INTO "cache_versions" ("name", "version") VALUES (raising, 1)
      ON CONFLICT ("name") DO UPDATE SET "version" = "cache_versions"."version" + 1;
      PERFORM set_config('podclub.versions_raised', raised || raising || ',', true);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "registrations_bump_seats_version" ON "registrations";--> statement-breakpoint
DROP TRIGGER "seat_waitlist_bump_seats_version" ON "seat_waitlist";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "registrations_bump_seats_version" AFTER INSERT OR UPDATE OR DELETE ON "registrations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('seats', 'podclub_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "seat_waitlist_bump_seats_version" AFTER INSERT OR UPDATE OR DELETE ON "seat_waitlist"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('seats', 'podclub_id');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "registrations_bump_member_seats_version" AFTER INSERT OR UPDATE OR DELETE ON "registrations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('member_seats', 'user_id');--> statement-breakpoint
-- The truncates of registrations and seat_waitlist raise 'seats' already (0015); a member's seats
-- are in registrations alone.
CREATE TRIGGER "registrations_truncate_bumps_member_seats_version" AFTER TRUNCATE ON "registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('member_seats');
