-- Organizers change an event (`PATCH /v1/events/{event}`: its name, dates and time zone). A purge
-- date left at its default moves with the end; one an organizer chose (`PUT …/purge-date`) stays,
-- and an end moved past it is refused unless the same change moves it too. `purge_on_chosen` says
-- which. Events from before this migration count as left at the default: which of their dates
-- were chosen was not recorded.
ALTER TABLE events ADD COLUMN purge_on_chosen boolean NOT NULL DEFAULT false;
