-- Schema version 2, second part: back to append-only, and every row from now on is chained.

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

CREATE TRIGGER invocations_no_update BEFORE UPDATE ON invocations
BEGIN SELECT RAISE(ABORT, 'invocations are append-only'); END;

CREATE TRIGGER events_chained BEFORE INSERT ON events
WHEN NEW.prev_hash IS NULL OR NEW.row_hash IS NULL
BEGIN SELECT RAISE(ABORT, 'events are hash-chained: a row needs prev_hash and row_hash'); END;

CREATE TRIGGER invocations_chained BEFORE INSERT ON invocations
WHEN NEW.prev_hash IS NULL OR NEW.row_hash IS NULL
BEGIN SELECT RAISE(ABORT, 'invocations are hash-chained: a row needs prev_hash and row_hash'); END;

CREATE TRIGGER chain_upgrades_no_update BEFORE UPDATE ON chain_upgrades
BEGIN SELECT RAISE(ABORT, 'chain_upgrades is append-only'); END;

CREATE TRIGGER chain_upgrades_no_delete BEFORE DELETE ON chain_upgrades
BEGIN SELECT RAISE(ABORT, 'chain_upgrades is append-only'); END;
