-- Every change to what the upcoming feed shows bumps the 'podclubs' row of cache_versions, in the
-- transaction of the change, whichever code made it: cached feeds can never be forgotten stale.
CREATE FUNCTION "bump_podclubs_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "cache_versions" ("name", "version") VALUES ('podclubs', 1)
  ON CONFLICT ("name") DO UPDATE SET "version" = "cache_versions"."version" + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "podclubs_bump_feed_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "podclubs"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE TRIGGER "registrations_bump_feed_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "registrations"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE TRIGGER "seat_waitlist_bump_feed_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "seat_waitlist"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
-- Podcasts and members appear in the feed by name (and picture): only those changes count.
CREATE TRIGGER "podcasts_bump_feed_version" AFTER UPDATE OF "name", "picture_link" OR DELETE ON "podcasts"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();--> statement-breakpoint
CREATE TRIGGER "users_bump_feed_version" AFTER UPDATE OF "username" OR DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_podclubs_version"();
