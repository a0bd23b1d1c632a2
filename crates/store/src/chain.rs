//! The hash chain over both logs (issue 24): every row of `events` and of `invocations` carries
//! the hash of the row before it (`prev_hash`) and of its own content with that link
//! (`row_hash`), so that an edit, a deletion or an insertion anywhere breaks the chain from that
//! row on, and a report that printed the head (last seq and its hash) fixes everything before it.
//!
//! `row_hash = SHA-256("masf-chain-v1" 0x00 table 0x00 prev_hash column…)`, where each column is
//! encoded from its stored SQLite value, in the order of [`EVENT_COLUMNS`] /
//! [`INVOCATION_COLUMNS`]: NULL as `N`; an integer as `I` and 8 bytes little-endian; a real as
//! `R` and its 8 IEEE-754 bytes little-endian; text as `T`, its length (8 bytes little-endian)
//! and its UTF-8 bytes; a blob as `B`, its length and its bytes. The first row's `prev_hash` is
//! [`GENESIS`]. An invocation's inline output is not a column of the chain: its `output_sha256`
//! is, and the output is checked against that hash wherever it is read. docs/case-integrity.md
//! shows how to recompute a chain with `sqlite3` and Python, without this program.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::{Result, Store};

/// The `prev_hash` of a log's first row.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The columns of an event that its hash covers, in order.
pub const EVENT_COLUMNS: &[&str] = &[
    "seq",
    "kind",
    "payload",
    "actor_kind",
    "actor_id",
    "idempotency_key",
    "causation_seq",
    "ts",
    "versions",
];

/// The columns of an invocation that its hash covers, in order.
pub const INVOCATION_COLUMNS: &[&str] = &[
    "seq",
    "invocation_id",
    "source_id",
    "tool",
    "args",
    "status",
    "reason",
    "cached_from",
    "output_sha256",
    "output_size",
    "agent",
    "task_id",
    "ts",
    "duration_ms",
    "versions",
    "idempotency_key",
];

/// The two chained logs.
pub(crate) const LOGS: [(&str, &[&str]); 2] = [
    ("events", EVENT_COLUMNS),
    ("invocations", INVOCATION_COLUMNS),
];

/// The hash of one row: see the module documentation.
pub fn row_hash(table: &str, prev_hash: &str, columns: &[ValueRef<'_>]) -> String {
    let mut h = Sha256::new();
    h.update(b"masf-chain-v1\0");
    h.update(table.as_bytes());
    h.update(b"\0");
    h.update(prev_hash.as_bytes());
    for value in columns {
        match *value {
            ValueRef::Null => h.update(b"N"),
            ValueRef::Integer(n) => {
                h.update(b"I");
                h.update(n.to_le_bytes());
            }
            ValueRef::Real(x) => {
                h.update(b"R");
                h.update(x.to_bits().to_le_bytes());
            }
            ValueRef::Text(bytes) => {
                h.update(b"T");
                h.update((bytes.len() as u64).to_le_bytes());
                h.update(bytes);
            }
            ValueRef::Blob(bytes) => {
                h.update(b"B");
                h.update((bytes.len() as u64).to_le_bytes());
                h.update(bytes);
            }
        }
    }
    hex::encode(h.finalize())
}

/// The `row_hash` of the last row of `table` ([`GENESIS`] for an empty log): the `prev_hash` of
/// the next row.
pub(crate) fn last_hash(conn: &Connection, table: &str) -> Result<String> {
    let last: Option<Option<String>> = conn
        .prepare_cached(&format!(
            "SELECT row_hash FROM {table} ORDER BY seq DESC LIMIT 1"
        ))?
        .query_row([], |row| row.get(0))
        .optional()?;
    Ok(last.flatten().unwrap_or_else(|| GENESIS.to_owned()))
}

/// Fills `prev_hash` and `row_hash` of every row of `table` that has none, in seq order,
/// continuing the chain from the rows before them: the upgrade of a store written before the
/// chain existed. Returns the last seq chained (0 when there was nothing to chain).
pub(crate) fn backfill(conn: &Connection, table: &str, columns: &[&str]) -> Result<i64> {
    let mut prev = GENESIS.to_owned();
    let mut last = 0;
    let select = format!(
        "SELECT row_hash, {} FROM {table} ORDER BY seq",
        columns.join(", ")
    );
    let mut stmt = conn.prepare(&select)?;
    let mut rows = stmt.query([])?;
    let mut update = conn.prepare(&format!(
        "UPDATE {table} SET prev_hash = ?1, row_hash = ?2 WHERE seq = ?3"
    ))?;
    while let Some(row) = rows.next()? {
        let seq: i64 = row.get(1)?;
        let stored: Option<String> = row.get(0)?;
        let hash = match stored {
            Some(hash) => hash,
            None => {
                let values = (1..=columns.len())
                    .map(|i| row.get_ref(i))
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                let hash = row_hash(table, &prev, &values);
                update.execute(params![prev, hash, seq])?;
                last = seq;
                hash
            }
        };
        prev = hash;
    }
    Ok(last)
}

/// Where a log's chain first fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainBreak {
    /// `events` or `invocations`.
    pub table: &'static str,
    /// The first row that does not hold.
    pub seq: i64,
    /// What is wrong with it.
    pub reason: String,
}

impl std::fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} seq {}: the hash chain breaks here ({})",
            self.table, self.seq, self.reason
        )
    }
}

/// The end of a log's chain: what a report prints so that a later change is visible.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ChainHead {
    /// `events` or `invocations`.
    pub table: String,
    /// Rows in the log.
    pub count: u64,
    /// The last row's seq (0 for an empty log).
    pub seq: i64,
    /// The last row's `row_hash` ([`GENESIS`] for an empty log).
    pub hash: String,
    /// Rows up to this seq were chained when the store was upgraded from a version without the
    /// chain: the chain attests them from the upgrade on, not from when they were written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgraded_through: Option<i64>,
}

impl Store {
    /// Recomputes both chains and returns, for each log, the first row where it fails (none in
    /// an untouched store). Reads every row once.
    pub fn chain_breaks(&self) -> Result<Vec<ChainBreak>> {
        let mut breaks = Vec::new();
        for (table, columns) in LOGS {
            let mut stmt = self.conn.prepare(&format!(
                "SELECT prev_hash, row_hash, {} FROM {table} ORDER BY seq",
                columns.join(", ")
            ))?;
            let mut rows = stmt.query([])?;
            let mut prev = GENESIS.to_owned();
            let mut prev_seq = 0;
            while let Some(row) = rows.next()? {
                let seq: i64 = row.get(2)?;
                let stored_prev: Option<String> = row.get(0)?;
                let stored: Option<String> = row.get(1)?;
                let values = (2..2 + columns.len())
                    .map(|i| row.get_ref(i))
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                let reason = match (&stored_prev, &stored) {
                    (None, _) | (_, None) => Some("the row has no hash".to_owned()),
                    (Some(p), _) if *p != prev => Some(if prev_seq == 0 {
                        "it should be the first row of the chain".to_owned()
                    } else {
                        format!(
                            "it does not follow seq {prev_seq}: a row before it was removed, changed or inserted"
                        )
                    }),
                    (Some(p), Some(h)) if *h != row_hash(table, p, &values) => Some(
                        "its content no longer matches its hash: the row was changed".to_owned(),
                    ),
                    _ => None,
                };
                if let Some(reason) = reason {
                    breaks.push(ChainBreak { table, seq, reason });
                    break;
                }
                prev = stored.unwrap_or_default();
                prev_seq = seq;
            }
        }
        Ok(breaks)
    }

    /// The head of each log's chain, events first.
    pub fn chain_heads(&self) -> Result<Vec<ChainHead>> {
        let mut heads = Vec::new();
        for (table, _) in LOGS {
            let (count, seq): (i64, i64) = self.conn.query_row(
                &format!("SELECT COUNT(*), COALESCE(MAX(seq), 0) FROM {table}"),
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
            let upgraded_through = self
                .conn
                .query_row(
                    "SELECT through_seq FROM chain_upgrades WHERE log = ?1",
                    [table],
                    |row| row.get(0),
                )
                .optional()?;
            heads.push(ChainHead {
                table: table.to_owned(),
                count: u64::try_from(count).unwrap_or(0),
                seq,
                hash: last_hash(&self.conn, table)?,
                upgraded_through,
            });
        }
        Ok(heads)
    }

    /// The `row_hash` stored for one row, if the row exists: for checking a head printed earlier
    /// against the store.
    pub fn row_hash_at(&self, table: &str, seq: i64) -> Result<Option<String>> {
        let Some((table, _)) = LOGS.into_iter().find(|(t, _)| *t == table) else {
            return Ok(None);
        };
        Ok(self
            .conn
            .query_row(
                &format!("SELECT row_hash FROM {table} WHERE seq = ?1"),
                [seq],
                |row| row.get::<_, Option<String>>(0),
            )
            .optional()?
            .flatten())
    }
}
