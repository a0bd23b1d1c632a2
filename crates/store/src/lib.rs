//! The case store: one SQLite file per case, `case.sqlite` in the case's work folder (DESIGN §11).
//!
//! Two append-only tables hold everything that was done in a case:
//! - `events`: what the examiner, agents and the system did, each with an idempotency key so a
//!   resumed run never records a fact twice; graph state, decisions and run state are projections
//!   that callers rebuild with [`Store::fold`];
//! - `invocations`: every tool call with the sha256 of its output (DESIGN §5); small outputs are
//!   kept inline, larger ones as content-addressed files under `objects/`.
//!
//! UPDATE and DELETE on both tables are refused by SQLite triggers, and every row is hash-chained
//! to the one before it ([`chain`]), so that what the triggers cannot stop (a raw edit of the
//! file with the triggers dropped) is seen by [`Store::chain_breaks`]. The store never reads the
//! clock and decides nothing: times come from the caller, and meaning is the callers' business.
//! It persists and folds.
//!
//! # What is here
//!
//! - Versioned migrations (`PRAGMA user_version`, [`SCHEMA_VERSION`]) in
//!   `crates/store/migrations/`, whose triggers refuse UPDATE and DELETE (tested with a raw
//!   connection).
//! - Idempotency keys, `UNIQUE` in both tables (required for events, optional for invocations),
//!   so nothing recorded is lost or duplicated;
//!   WAL with `synchronous=FULL`; a kill -9 test with a real child process
//!   (`masf-store-writer`).
//! - Content-addressed outputs, `objects/aa/<sha256>`, re-hashed on read. An object found altered
//!   when the same content is written again is kept aside as `.damaged-N` and restored.
//! - [`lease`]: the run lease. A [`Lease`] is an exclusive `flock` on `run.lock` in the work
//!   folder, released by the kernel however its holder ends, and holds its [`Holder`] (pid, host,
//!   since) for the refusal message; `Wait` waits for it.
//! - `Store::append_batch_unless_newer` appends a batch only if no event of the watched kinds
//!   came after the writer's seq: check and append in one write transaction.
//! - `Store::sequence_gaps` finds holes in either log's numbering (rows removed behind the
//!   triggers).
//! - [`chain`]: both logs are hash-chained (schema 2: `prev_hash` and `row_hash` over the stored
//!   columns, computed inside the appending transaction; a trigger refuses a row without its
//!   hashes). A version-1 store is chained at its first open and the `chain_upgrades` table says
//!   through which seq. `chain_breaks` names each log's first bad row, `chain_heads` is what a
//!   report prints, `row_hash_at` checks a printed head later.
//! - An event is refused when dated before its `causation_seq`.
//!
//! Tests: `crates/store/tests/it/` (`append_only`, `chain`, `crash`, `migrations`, …); the run
//! lease, the consistency check and the chain in use: docs/case-integrity.md.

#![warn(missing_docs)]

pub mod chain;
mod check;
mod error;
mod events;
mod invocations;
pub mod lease;
mod objects;
mod schema;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use chain::{ChainBreak, ChainHead};
pub use check::SeqGap;
pub use error::StoreError;
pub use events::{ActorKind, Appended, Guarded, NewEvent, StoredEvent, Watch};
pub use invocations::{INLINE_OUTPUT_MAX, InvocationRecord, InvocationStatus, NewInvocation};
pub use lease::{Holder, Lease};
pub use schema::SCHEMA_VERSION;

/// Result of store operations.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Versions of what produced a record (`tool`, `app`, `model`, `prompt`, …), stored as a JSON
/// object with sorted keys.
pub type Versions = BTreeMap<String, String>;

/// Name of the SQLite file inside the work folder.
pub const DB_FILE: &str = "case.sqlite";

/// The file whose OS lock serialises opening the store for writing (see [`Store::open`]).
pub const OPEN_LOCK_FILE: &str = "open.lock";

/// How long a connection waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// An open case store.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    work_dir: PathBuf,
}

impl Store {
    /// Opens the store in `work_dir` for writing, creating the folder and `case.sqlite` if
    /// needed and applying pending migrations. Refuses a store from a newer build
    /// ([`StoreError::NewerSchema`]).
    pub fn open(work_dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(work_dir).map_err(StoreError::io(work_dir))?;
        // Two processes creating the same store at once can see SQLITE_BUSY from the switch to
        // WAL, which SQLite's busy handler does not retry: the switch and the migrations run
        // under an OS lock (released when this function returns, or when the process dies).
        let lock_path = work_dir.join(OPEN_LOCK_FILE);
        let lock = std::fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(StoreError::io(&lock_path))?;
        lock.lock().map_err(StoreError::io(&lock_path))?;
        let path = work_dir.join(DB_FILE);
        let mut conn = Connection::open(&path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL must be set outside a transaction; FULL syncs every commit: the audit log favours
        // durability over speed.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            let msg = format!("the file system refused WAL journaling (journal mode is {mode})");
            return Err(StoreError::io(path)(std::io::Error::other(msg)));
        }
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        schema::migrate(&mut conn)?;
        Ok(Self {
            conn,
            work_dir: work_dir.to_path_buf(),
        })
    }

    /// Opens an existing store for reading only; it must be at [`SCHEMA_VERSION`]
    /// (otherwise [`StoreError::NewerSchema`] or [`StoreError::OlderSchema`]).
    pub fn open_read_only(work_dir: &Path) -> Result<Self> {
        let path = work_dir.join(DB_FILE);
        if !path.is_file() {
            return Err(StoreError::Io {
                path,
                source: std::io::ErrorKind::NotFound.into(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.pragma_update(None, "query_only", true)?;
        schema::check_current(&conn)?;
        Ok(Self {
            conn,
            work_dir: work_dir.to_path_buf(),
        })
    }

    /// The case's work folder.
    pub fn work_dir(&self) -> &Path {
        &self.work_dir
    }

    /// The SQLite file of the store.
    pub fn db_path(&self) -> PathBuf {
        self.work_dir.join(DB_FILE)
    }

    /// Where the output object with this sha256 lives: `objects/<first 2 hex>/<sha256>`.
    pub fn object_path(&self, sha256: &str) -> PathBuf {
        objects::object_path(&self.work_dir, sha256)
    }

    /// Runs `read` on one snapshot of the store: every query made through this store inside it
    /// sees the logs as they were at the snapshot's start, whatever another connection (a run,
    /// an examiner's decision) commits meanwhile. A report is built this way, so that what it
    /// shows and the chain heads it prints describe the same events.
    ///
    /// A SQLite read transaction in WAL mode: it blocks no writer. Inside a transaction already
    /// open on this connection, `read` simply runs in that one.
    pub fn read_snapshot<R, E: From<StoreError>>(
        &self,
        read: impl FnOnce(&Self) -> std::result::Result<R, E>,
    ) -> std::result::Result<R, E> {
        if !self.conn.is_autocommit() {
            return read(self);
        }
        self.conn
            .execute_batch("BEGIN DEFERRED")
            .map_err(StoreError::from)?;
        // Ends the transaction however `read` leaves (an error or a panic included).
        struct End<'a>(&'a Connection);
        impl Drop for End<'_> {
            fn drop(&mut self) {
                // A read transaction has nothing to keep: rolling back ends it.
                let _ = self.0.execute_batch("ROLLBACK");
            }
        }
        let _end = End(&self.conn);
        // The snapshot starts at the first read, not at BEGIN: read once now.
        self.conn
            .query_row("SELECT COUNT(*) FROM sqlite_schema", [], |row| {
                row.get::<_, i64>(0)
            })
            .map_err(StoreError::from)?;
        read(self)
    }
}

/// Reads a text column through `parse`, reporting a failure as a column conversion error.
fn parse_column<T, E>(
    row: &rusqlite::Row<'_>,
    idx: usize,
    parse: impl FnOnce(&str) -> std::result::Result<T, E>,
) -> rusqlite::Result<T>
where
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let text: String = row.get(idx)?;
    parse(&text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(idx, rusqlite::types::Type::Text, e.into())
    })
}

/// Reads a JSON text column.
fn json_column<T: serde::de::DeserializeOwned>(
    row: &rusqlite::Row<'_>,
    idx: usize,
) -> rusqlite::Result<T> {
    parse_column(row, idx, |text| serde_json::from_str(text))
}

/// Reads an RFC 3339 timestamp column.
fn ts_column(row: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<jiff::Timestamp> {
    parse_column(row, idx, str::parse::<jiff::Timestamp>)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writable_store_is_durable_and_checks_foreign_keys() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let pragma = |name: &str| -> String {
            store
                .conn
                .query_row(&format!("PRAGMA {name}"), [], |row| {
                    row.get::<_, rusqlite::types::Value>(0)
                })
                .map(|value| match value {
                    rusqlite::types::Value::Integer(n) => n.to_string(),
                    rusqlite::types::Value::Text(text) => text,
                    other => format!("{other:?}"),
                })
                .unwrap()
        };
        // synchronous 2 = FULL.
        let expected = [
            ("journal_mode", "wal"),
            ("synchronous", "2"),
            ("foreign_keys", "1"),
            ("busy_timeout", "10000"),
        ];
        for (name, value) in expected {
            assert_eq!(pragma(name), value, "PRAGMA {name}");
        }
        assert_eq!(store.db_path(), dir.path().join("case.sqlite"));
    }
}
