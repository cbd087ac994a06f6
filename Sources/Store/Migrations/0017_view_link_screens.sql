-- How many screens a view link may light at once: its live streams, and as many graph requests
-- running, counted for the link itself rather than against the organizer who made it. An
-- organizer chooses it when making the link (1 to 50, 4 unless said).
ALTER TABLE view_links ADD COLUMN screens integer NOT NULL DEFAULT 4 CHECK (screens BETWEEN 1 AND 50);
