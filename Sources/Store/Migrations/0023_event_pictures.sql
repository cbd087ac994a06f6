-- Each event's latest picture, shared by every server of a deployment (docs/scale-out.md): the
-- people it placed, where, and what it was made from, so that screens behind a load balancer see
-- one picture and one server lays out the next while the others serve this one.
--
-- One server makes the next picture at a time. It takes the lease (`lease_until` in the past or
-- NULL: set it ahead and add one to `lease_generation`), lays out, and saves the picture only if
-- the generation is still the one it took (compare-and-set): a server that stalled past its lease
-- saves nothing over a newer picture. No lock is held while it lays out, so no transaction stays
-- open for seconds, and the lease survives PgBouncer's transaction pooling and a failover; a
-- server killed mid-picture leaves the last good one in place, and another takes over when the
-- lease runs out.
--
-- `people` names profiles: the purge removes the row, a profile's erasure removes every picture
-- holding it, and a member who leaves removes the event's picture (the next one is made without
-- them). It is derived data: losing it costs one fresh layout.
CREATE TABLE event_pictures (
    event_id           uuid PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    lease_generation   bigint NOT NULL DEFAULT 0 CHECK (lease_generation >= 0),
    lease_until        timestamptz,
    -- Which server holds or last held the lease (its host and process), for operators.
    maker              text CHECK (char_length(maker) <= 200),
    -- The picture, once one was saved: the lease generation that made it, a fingerprint of the
    -- people and pairs it placed, the people (by profile id, in the picture's order) and their
    -- places (per person: x and y as float8, community and component size as int4, little-endian).
    picture_generation bigint,
    fingerprint        bigint,
    people             uuid[],
    places             bytea,
    grown_in_a_row     integer CHECK (grown_in_a_row BETWEEN 0 AND 1000),
    warm_started       boolean,
    made_at            timestamptz,
    CONSTRAINT event_pictures_whole CHECK (
        (picture_generation IS NULL) = (people IS NULL)
        AND (people IS NULL) = (places IS NULL)
        AND (people IS NULL) = (fingerprint IS NULL)
        AND (people IS NULL) = (grown_in_a_row IS NULL)
        AND (people IS NULL) = (warm_started IS NULL)
        AND (people IS NULL) = (made_at IS NULL)),
    CONSTRAINT event_pictures_places CHECK (octet_length(places) = 24 * cardinality(people))
);
