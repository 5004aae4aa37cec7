-- When an operator sent a podclub's notice by hand: the reminders whose moment had come by then are
-- not sent after it, the ones still ahead are.
ALTER TABLE "podclubs" ADD COLUMN "manual_notice_sent_at" timestamp with time zone;