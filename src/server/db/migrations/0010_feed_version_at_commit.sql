-- The feed's version is raised as the transaction commits, not at its first change. Raised at the
-- first change, the 'podclubs' row of cache_versions stayed locked for the rest of the
-- transaction, so every seat change in the club queued behind it, and a transaction that went on
-- to lock another podclub (an account deletion giving back its seats in order) deadlocked with a
-- seat change waiting for that row. Deferred triggers run at commit, after every other lock has
-- been taken, so the row is held only for the commit itself and no lock is ever awaited while
-- holding it. A transaction raises the version once, however many rows it changed.
CREATE OR REPLACE FUNCTION "bump_podclubs_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('podclub.feed_version_raised', true) IS DISTINCT FROM 'on' THEN
    INSERT INTO "cache_versions" ("name", "version") VALUES ('podclubs', 1)
    ON CONFLICT ("name") DO UPDATE SET "version" = "cache_versions"."version" + 1;
    PERFORM set_config('podclub.feed_version_raised', 'on', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "podclubs_bump_feed_version" ON "podclubs";--> statement-breakpoint
DROP TRIGGER "registrations_bump_feed_version" ON "registrations";--> statement-breakpoint
DROP TRIGGER "seat_waitlist_bump_feed_version" ON "seat_waitlist";--> statement-breakpoint
DROP TRIGGER "podcasts_bump_feed_version" ON "podcasts";--> statement-breakpoint
DROP TRIGGER "users_bump_feed_version" ON "users";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "podclubs_bump_feed_version" AFTER INSERT OR UPDATE OR DELETE ON "podclubs"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "registrations_bump_feed_version" AFTER INSERT OR UPDATE OR DELETE ON "registrations"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "seat_waitlist_bump_feed_version" AFTER INSERT OR UPDATE OR DELETE ON "seat_waitlist"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
-- Podcasts and members appear in the feed by name (and picture): only those changes count.
CREATE CONSTRAINT TRIGGER "podcasts_bump_feed_version" AFTER UPDATE OF "name", "picture_link" OR DELETE ON "podcasts"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_bump_feed_version" AFTER UPDATE OF "username" OR DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
-- A truncate (tests reset tables with it) has no rows to fire for: it raises the version at once.
CREATE TRIGGER "podclubs_truncate_bumps_feed_version" AFTER TRUNCATE ON "podclubs"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE TRIGGER "registrations_truncate_bumps_feed_version" AFTER TRUNCATE ON "registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE TRIGGER "seat_waitlist_truncate_bumps_feed_version" AFTER TRUNCATE ON "seat_waitlist"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();
