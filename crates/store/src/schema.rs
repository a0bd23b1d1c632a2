//! Versioned schema migrations, tracked in `PRAGMA user_version`.
//!
//! `MIGRATIONS[v]` takes a store from version `v` to `v + 1`, in its own transaction, so a failed
//! migration leaves the store at the last version that fully applied. A shipped migration is never
//! edited: a schema change is a new file appended to the list (and a row in the upgrade test).

use rusqlite::{Connection, TransactionBehavior};

use crate::StoreError;

/// The migrations in order; their count is the schema version.
pub(crate) const MIGRATIONS: &[&str] = &[include_str!(
    "../migrations/0001_events_and_invocations.sql"
)];

/// The schema version this build creates and understands.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Brings the store up to [`SCHEMA_VERSION`], refusing a store from a newer build.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_with(conn, MIGRATIONS)
}

fn migrate_with(conn: &mut Connection, migrations: &[&str]) -> Result<(), StoreError> {
    let known = migrations.len() as u32;
    loop {
        // IMMEDIATE: take the write lock before reading the version, so two processes opening the
        // same store cannot both apply the same migration.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found = user_version(&tx)?;
        if found > known {
            return Err(StoreError::NewerSchema { found, known });
        }
        let Some(sql) = migrations.get(found as usize) else {
            return Ok(());
        };
        let version = found + 1;
        tx.execute_batch(sql)
            .and_then(|()| tx.pragma_update(None, "user_version", version))
            .map_err(|source| StoreError::Migration { version, source })?;
        tx.commit()?;
    }
}

/// Checks, without changing anything, that the store is exactly at [`SCHEMA_VERSION`].
pub(crate) fn check_current(conn: &Connection) -> Result<(), StoreError> {
    let found = user_version(conn)?;
    let known = SCHEMA_VERSION;
    match found.cmp(&known) {
        std::cmp::Ordering::Greater => Err(StoreError::NewerSchema { found, known }),
        std::cmp::Ordering::Less => Err(StoreError::OlderSchema { found, known }),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// The schema version recorded in the store (0 for a new, empty file).
pub(crate) fn user_version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_names(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap();
        stmt.query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn every_migration_applies_in_order_and_sets_the_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        for applied in 1..=MIGRATIONS.len() {
            migrate_with(&mut conn, &MIGRATIONS[..applied]).unwrap();
            assert_eq!(user_version(&conn).unwrap() as usize, applied);
        }
        assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION);
        assert_eq!(
            table_names(&conn),
            ["events", "invocations", "sqlite_sequence"]
        );
        // Running again is a no-op.
        migrate(&mut conn).unwrap();
        assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn a_failing_migration_rolls_back_and_keeps_the_previous_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        let migrations = [
            "CREATE TABLE kept (x); INSERT INTO kept VALUES (1);",
            "CREATE TABLE half_done (x); THIS IS NOT SQL;",
        ];
        let err = migrate_with(&mut conn, &migrations).unwrap_err();
        assert!(
            matches!(err, StoreError::Migration { version: 2, .. }),
            "{err}"
        );
        assert_eq!(user_version(&conn).unwrap(), 1);
        assert_eq!(table_names(&conn), ["kept"]);
    }

    #[test]
    fn a_newer_store_is_refused_and_left_alone() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 3)
            .unwrap();
        let err = migrate(&mut conn).unwrap_err();
        assert!(
            matches!(err, StoreError::NewerSchema { found, known }
                if found == SCHEMA_VERSION + 3 && known == SCHEMA_VERSION),
            "{err}"
        );
        assert!(table_names(&conn).is_empty());
        assert!(matches!(
            check_current(&conn),
            Err(StoreError::NewerSchema { .. })
        ));
    }
}
