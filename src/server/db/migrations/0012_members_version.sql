-- A second row of cache_versions, 'members', raised at the commit of every change to an account or
-- a session, whichever code made it: caches of a member's session and profile, shared by every app
-- process on one database, can never be forgotten stale. As for 'podclubs' (0010), the row is
-- raised by deferred triggers, once per transaction, so it is locked only for the commit itself.
CREATE FUNCTION "bump_cache_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  raised text := 'podclub.version_raised_' || TG_ARGV[0];
BEGIN
  IF current_setting(raised, true) IS DISTINCT FROM 'on' THEN
    INSERT INTO "cache_versions" ("name", "version") VALUES (TG_ARGV[0], 1)
    ON CONFLICT ("name") DO UPDATE SET "version" = "cache_versions"."version" + 1;
    PERFORM set_config(raised, 'on', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_bump_members_version" AFTER INSERT OR UPDATE OR DELETE ON "users"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('members');--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sessions_bump_members_version" AFTER INSERT OR UPDATE OR DELETE ON "sessions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_cache_version"('members');--> statement-breakpoint
-- A truncate (tests reset tables with it) has no rows to fire for: it raises the version at once.
CREATE TRIGGER "users_truncate_bumps_members_version" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('members');--> statement-breakpoint
CREATE TRIGGER "sessions_truncate_bumps_members_version" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('members');
