ALTER TABLE "users" DROP CONSTRAINT "users_username_format";--> statement-breakpoint
DROP INDEX "users_username_unique";--> statement-breakpoint
DROP INDEX "users_email_lower_unique";--> statement-breakpoint
DROP INDEX "users_calendar_token_hash_unique";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree ("username") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_unique" ON "users" USING btree (lower("email")) WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_calendar_token_hash_unique" ON "users" USING btree ("calendar_token_hash") WHERE "users"."calendar_token_hash" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_username_format" CHECK ("users"."deleted_at" is not null or "users"."username" ~ '^[a-z0-9.]{3,24}$');