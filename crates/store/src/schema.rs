//! Versioned schema migrations, tracked in `PRAGMA user_version`.
//!
//! `MIGRATIONS[v]` takes a store from version `v` to `v + 1`, in its own transaction, so a failed
//! migration leaves the store at the last version that fully applied. A shipped migration is never
//! edited: a schema change is a new file appended to the list (and a row in the upgrade test).

use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::StoreError;

/// One migration: SQL, or SQL around a step in Rust (what SQL alone cannot compute).
#[derive(Clone, Copy)]
pub(crate) enum Migration {
    /// A script.
    Sql(&'static str),
    /// A script, then the step, then a second script.
    Steps(
        &'static str,
        fn(&Transaction<'_>) -> Result<(), StoreError>,
        &'static str,
    ),
}

/// The migrations in order; their count is the schema version.
pub(crate) const MIGRATIONS: &[Migration] = &[
    Migration::Sql(include_str!(
        "../migrations/0001_events_and_invocations.sql"
    )),
    Migration::Steps(
        include_str!("../migrations/0002_hash_chain_open.sql"),
        chain_existing_rows,
        include_str!("../migrations/0002_hash_chain_close.sql"),
    ),
];

/// Version 2's step: chains the rows written before the chain existed, and says which.
fn chain_existing_rows(tx: &Transaction<'_>) -> Result<(), StoreError> {
    for (table, columns) in crate::chain::LOGS {
        let through = crate::chain::backfill(tx, table, columns)?;
        if through > 0 {
            tx.execute(
                "INSERT INTO chain_upgrades (log, through_seq) VALUES (?1, ?2)",
                rusqlite::params![table, through],
            )?;
        }
    }
    Ok(())
}

impl Migration {
    fn apply(&self, tx: &Transaction<'_>, version: u32) -> Result<(), StoreError> {
        let sql = |script: &str| {
            tx.execute_batch(script)
                .map_err(|source| StoreError::Migration { version, source })
        };
        match *self {
            Self::Sql(script) => sql(script),
            Self::Steps(open, step, close) => {
                sql(open)?;
                step(tx).map_err(|e| match e {
                    StoreError::Sqlite(source) => StoreError::Migration { version, source },
                    other => other,
                })?;
                sql(close)
            }
        }
    }
}

/// The schema version this build creates and understands.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Brings the store up to [`SCHEMA_VERSION`], refusing a store from a newer build.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_with(conn, MIGRATIONS)
}

fn migrate_with(conn: &mut Connection, migrations: &[Migration]) -> Result<(), StoreError> {
    let known = migrations.len() as u32;
    loop {
        // IMMEDIATE: take the write lock before reading the version, so two processes opening the
        // same store cannot both apply the same migration.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found = user_version(&tx)?;
        if found > known {
            return Err(StoreError::NewerSchema { found, known });
        }
        let Some(migration) = migrations.get(found as usize) else {
            return Ok(());
        };
        let version = found + 1;
        migration.apply(&tx, version)?;
        tx.pragma_update(None, "user_version", version)
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
            ["chain_upgrades", "events", "invocations", "sqlite_sequence"]
        );
        // Running again is a no-op.
        migrate(&mut conn).unwrap();
        assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn a_failing_migration_rolls_back_and_keeps_the_previous_version() {
        let mut conn = Connection::open_in_memory().unwrap();
        let migrations = [
            Migration::Sql("CREATE TABLE kept (x); INSERT INTO kept VALUES (1);"),
            Migration::Sql("CREATE TABLE half_done (x); THIS IS NOT SQL;"),
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
