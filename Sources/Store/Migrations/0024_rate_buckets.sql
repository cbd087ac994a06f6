-- The rate limits that must hold for the whole deployment, however a load balancer spreads the
-- clients (docs/configuration-and-operations.md#rate-limits): registrations per address, per event
-- and per person whose code brought them, events created, wrong join codes. Each is a token bucket:
-- `tokens` as of `updated`, refilled by whoever reads it next at the rule's rate, up to the rule's
-- count. A row is the bucket of one rule and one subject (`register address:203.0.113.7`); one
-- untouched for two hours is full again, and is forgotten by the background work.
CREATE TABLE rate_buckets (
    subject text PRIMARY KEY CHECK (char_length(subject) <= 300),
    tokens  double precision NOT NULL CHECK (tokens >= 0 AND tokens <= 10000000),
    updated timestamptz NOT NULL CHECK (isfinite(updated))
);
CREATE INDEX rate_buckets_updated ON rate_buckets (updated);
