-- One trigger function raises every row of cache_versions: "bump_cache_version"(name) of 0012.
-- The 'podclubs' row, raised until now by a function of its own (0008, 0010), moves to it, and its
-- triggers now cover every column the cached reads on it use (db/cache-dependencies.test.ts checks
-- them against what each read asks of the database): also a podcast's or a member's id, a
-- member's address and deletion, and a truncate of podcasts or members. A new podcast or member
-- shows only once a podclub or a seat refers to it, which raises the version itself.
DROP TRIGGER "podclubs_bump_feed_version" ON "podclubs";--> statement-breakpoint
DROP TRIGGER "registrations_bump_feed_version" ON "registrations";--> statement-breakpoint
DROP TRIGGER "seat_waitlist_bump_feed_version" ON "seat_waitlist";--> statement-breakpoint
DROP TRIGGER "podcasts_bump_feed_version" ON "podcasts";--> statement-breakpoint
DROP TRIGGER "users_bump_feed_version" ON "users";--> statement-breakpoint
DROP TRIGGER "podclubs_truncate_bumps_feed_version" ON "podclubs";--> statement-breakpoint
DROP TRIGGER "registrations_truncate_bumps_feed_version" ON "registrations";--> statement-breakpoint
DROP TRIGGER "seat_waitlist_truncate_bumps_feed_version" ON "seat_waitlist";--> statement-breakpoint
DROP FUNCTION "bump_podclubs_version"();--> statement-breakpoint
-- Seats and seat waitlists raise a row of their own, 'seats': a seat change, by far the most
-- frequent write in a rush, leaves the podclubs' texts cached (the feed keeps them apart).
CREATE CONSTRAINT TRIGGER "podclubs_bump_podclubs_version" AFTER INSERT OR UPDATE OR DELETE ON "podclubs"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('podclubs');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "registrations_bump_seats_version" AFTER INSERT OR UPDATE OR DELETE ON "registrations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('seats');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "seat_waitlist_bump_seats_version" AFTER INSERT OR UPDATE OR DELETE ON "seat_waitlist"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('seats');--> statement-breakpoint
-- Podcasts and members appear in the podclubs' reads by name (and picture), members' addresses and
-- deletions in who takes part: only those columns.
CREATE CONSTRAINT TRIGGER "podcasts_bump_podclubs_version" AFTER UPDATE OF "id", "name", "picture_link" OR DELETE ON "podcasts"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('podclubs');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_bump_podclubs_version" AFTER UPDATE OF "id", "username", "email", "deleted_at" OR DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('podclubs');--> statement-breakpoint
-- A truncate (tests reset tables with it) has no rows to fire for: it raises the version at once.
CREATE TRIGGER "podclubs_truncate_bumps_podclubs_version" AFTER TRUNCATE ON "podclubs"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('podclubs');--> statement-breakpoint
CREATE TRIGGER "registrations_truncate_bumps_seats_version" AFTER TRUNCATE ON "registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('seats');--> statement-breakpoint
CREATE TRIGGER "seat_waitlist_truncate_bumps_seats_version" AFTER TRUNCATE ON "seat_waitlist"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('seats');--> statement-breakpoint
CREATE TRIGGER "podcasts_truncate_bumps_podclubs_version" AFTER TRUNCATE ON "podcasts"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('podclubs');--> statement-breakpoint
CREATE TRIGGER "users_truncate_bumps_podclubs_version" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('podclubs');
