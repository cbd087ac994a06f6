-- A wall (the picture an organizer projects for the room) labels no one by pseudonym: "Attendee
-- TK2G5Z" means nothing to the people in the room. A member may choose, per event, to be labelled
-- there by name, so that people who want to be found are; off by default. (How the organizers see
-- them, `visibility`, is a separate choice: a name on the wall is shown to everyone in the room.)
ALTER TABLE event_members ADD COLUMN wall_name boolean NOT NULL DEFAULT false;
