-- Schema version 1: the append-only event log and the invocation log (DESIGN §5, §11).
-- A shipped migration is never edited: a change is a new file at the end of schema::MIGRATIONS.

CREATE TABLE events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT    NOT NULL,
    payload         TEXT    NOT NULL CHECK (json_valid(payload)),
    actor_kind      TEXT    NOT NULL CHECK (actor_kind IN ('examiner', 'agent', 'system')),
    actor_id        TEXT    NOT NULL,
    idempotency_key TEXT    NOT NULL UNIQUE,
    causation_seq   INTEGER NULL REFERENCES events (seq),
    ts              TEXT    NOT NULL, -- RFC 3339, UTC, given by the caller
    versions        TEXT    NOT NULL CHECK (json_valid(versions) AND json_type(versions) = 'object')
);

CREATE INDEX events_by_kind ON events (kind, seq);

CREATE TABLE invocations (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    invocation_id   TEXT    NOT NULL UNIQUE, -- 'inv-' || zero-padded seq, assigned by the store
    source_id       TEXT    NOT NULL,
    tool            TEXT    NOT NULL,
    args            TEXT    NOT NULL CHECK (json_valid(args)), -- canonical JSON, given by the caller
    status          TEXT    NOT NULL
        CHECK (status IN ('ok', 'failed', 'timed_out', 'too_large', 'cached')),
    reason          TEXT    NULL,
    cached_from     TEXT    NULL REFERENCES invocations (invocation_id),
    output_sha256   TEXT    NOT NULL
        CHECK (length(output_sha256) = 64 AND output_sha256 NOT GLOB '*[^0-9a-f]*'),
    output_size     INTEGER NOT NULL CHECK (output_size >= 0),
    output_inline   BLOB    NULL, -- NULL: the output is in objects/<2 hex>/<sha256>
    agent           TEXT    NOT NULL,
    task_id         TEXT    NOT NULL,
    ts              TEXT    NOT NULL,
    duration_ms     INTEGER NOT NULL CHECK (duration_ms >= 0),
    versions        TEXT    NOT NULL CHECK (json_valid(versions) AND json_type(versions) = 'object'),
    idempotency_key TEXT    NULL UNIQUE,
    CHECK ((status = 'cached') = (cached_from IS NOT NULL))
);

CREATE INDEX invocations_by_task ON invocations (agent, task_id, seq);
CREATE INDEX invocations_by_call ON invocations (source_id, tool, args, seq);

-- Append-only, enforced by SQLite itself so that even a raw connection cannot rewrite history.
-- The BEFORE INSERT triggers stop INSERT OR REPLACE, whose implicit delete fires no DELETE trigger.

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TRIGGER events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE seq = NEW.seq OR idempotency_key = NEW.idempotency_key)
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TRIGGER invocations_no_update BEFORE UPDATE ON invocations
BEGIN SELECT RAISE(ABORT, 'invocations are append-only'); END;

CREATE TRIGGER invocations_no_delete BEFORE DELETE ON invocations
BEGIN SELECT RAISE(ABORT, 'invocations are append-only'); END;

CREATE TRIGGER invocations_no_replace BEFORE INSERT ON invocations
WHEN EXISTS (
    SELECT 1 FROM invocations
    WHERE seq = NEW.seq
       OR invocation_id = NEW.invocation_id
       OR idempotency_key = NEW.idempotency_key
)
BEGIN SELECT RAISE(ABORT, 'invocations are append-only'); END;
