-- Badges the organizers print: an attendee's explicit choice, since whoever holds a badge's code
-- can connect with its owner until the event ends. Off by default.
ALTER TABLE event_members ADD COLUMN print_badge boolean NOT NULL DEFAULT false;
