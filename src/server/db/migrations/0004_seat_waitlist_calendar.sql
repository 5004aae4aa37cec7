CREATE TABLE "seat_waitlist" (
	"id" serial PRIMARY KEY NOT NULL,
	"podclub_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_key" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_token_hash" text;--> statement-breakpoint
ALTER TABLE "podclubs" ADD COLUMN "duration_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "podclubs" ADD COLUMN "calendar_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "seat_waitlist" ADD CONSTRAINT "seat_waitlist_podclub_id_podclubs_id_fk" FOREIGN KEY ("podclub_id") REFERENCES "public"."podclubs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_waitlist" ADD CONSTRAINT "seat_waitlist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seat_waitlist_podclub_user_unique" ON "seat_waitlist" USING btree ("podclub_id","user_id");--> statement-breakpoint
CREATE INDEX "seat_waitlist_podclub_order_idx" ON "seat_waitlist" USING btree ("podclub_id","id");--> statement-breakpoint
CREATE INDEX "seat_waitlist_user_idx" ON "seat_waitlist" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_calendar_token_hash_unique" ON "users" USING btree ("calendar_token_hash");--> statement-breakpoint
ALTER TABLE "podclubs" ADD CONSTRAINT "podclubs_duration_positive" CHECK ("podclubs"."duration_minutes" between 1 and 1440);