-- Schema version 2, first part: the hash chain's columns (see src/chain.rs). Rows written before
-- this version are chained by the migration itself (chain::backfill, run between this file and
-- 0002_hash_chain_close.sql, in the same transaction), which lifts the no-update triggers for the
-- time of the backfill only.
-- A shipped migration is never edited: a change is a new file at the end of schema::MIGRATIONS.

ALTER TABLE events ADD COLUMN prev_hash TEXT NULL
    CHECK (prev_hash IS NULL OR (length(prev_hash) = 64 AND prev_hash NOT GLOB '*[^0-9a-f]*'));
ALTER TABLE events ADD COLUMN row_hash TEXT NULL
    CHECK (row_hash IS NULL OR (length(row_hash) = 64 AND row_hash NOT GLOB '*[^0-9a-f]*'));
ALTER TABLE invocations ADD COLUMN prev_hash TEXT NULL
    CHECK (prev_hash IS NULL OR (length(prev_hash) = 64 AND prev_hash NOT GLOB '*[^0-9a-f]*'));
ALTER TABLE invocations ADD COLUMN row_hash TEXT NULL
    CHECK (row_hash IS NULL OR (length(row_hash) = 64 AND row_hash NOT GLOB '*[^0-9a-f]*'));

-- Which rows were chained by this upgrade rather than when they were written.
CREATE TABLE chain_upgrades (
    log         TEXT    PRIMARY KEY CHECK (log IN ('events', 'invocations')),
    through_seq INTEGER NOT NULL
);

DROP TRIGGER events_no_update;
DROP TRIGGER invocations_no_update;
