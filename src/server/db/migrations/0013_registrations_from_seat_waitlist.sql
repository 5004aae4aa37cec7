-- A seat given from the seat waitlist says so: the live stream tells the member they are in even when
-- their joining the line and the freed seat reach a process as one coalesced change.
ALTER TABLE "registrations" ADD COLUMN "from_seat_waitlist" boolean DEFAULT false NOT NULL;
