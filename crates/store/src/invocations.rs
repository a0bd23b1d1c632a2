//! The append-only invocation log: every tool call and the sha256 of its output (DESIGN §5).

use jiff::Timestamp;
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior};
use serde::{Deserialize, Serialize};

use crate::objects::{self, sha256_hex};
use crate::{Result, Store, StoreError, Versions, chain, json_column, parse_column, ts_column};

/// Outputs up to this many bytes are stored inline in SQLite; larger ones under `objects/`.
pub const INLINE_OUTPUT_MAX: usize = 16 * 1024;

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum InvocationStatus {
    /// The tool ran and produced its output.
    Ok,
    /// The tool failed; `reason` says why, the output holds whatever it produced.
    Failed,
    /// The tool ran out of time.
    TimedOut,
    /// The output exceeded the allowed size.
    TooLarge,
    /// Answered from an earlier `Ok` call with the same source, tool and args, named by
    /// `cached_from`; still a logged call of the asking agent, with the same output.
    Cached,
}

impl InvocationStatus {
    /// The name stored in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Failed => "failed",
            Self::TimedOut => "timed_out",
            Self::TooLarge => "too_large",
            Self::Cached => "cached",
        }
    }

    fn parse(text: &str) -> std::result::Result<Self, String> {
        [
            Self::Ok,
            Self::Failed,
            Self::TimedOut,
            Self::TooLarge,
            Self::Cached,
        ]
        .into_iter()
        .find(|status| status.as_str() == text)
        .ok_or_else(|| format!("unknown invocation status {text:?}"))
    }
}

/// A tool call to record. The time is the caller's: the store never reads the clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewInvocation {
    /// The evidence source the tool was bound to.
    pub source_id: String,
    /// The tool's name.
    pub tool: String,
    /// The arguments as canonical JSON text; cache lookups compare this text exactly.
    pub args: String,
    /// How the call ended.
    pub status: InvocationStatus,
    /// Why it failed, timed out or was too large.
    pub reason: Option<String>,
    /// For [`InvocationStatus::Cached`] (and only then): the invocation whose output was reused.
    pub cached_from: Option<String>,
    /// The output bytes (canonical text for deterministic tools).
    pub output: Vec<u8>,
    /// The agent that made the call.
    pub agent: String,
    /// The task the agent was working on.
    pub task_id: String,
    /// When the call started.
    pub ts: Timestamp,
    /// How long it took.
    pub duration_ms: u64,
    /// Versions of the tool, app, model and prompt involved.
    pub versions: Versions,
    /// Optional: recording the same key again returns the first record.
    pub idempotency_key: Option<String>,
}

/// A recorded tool call, without its output bytes (see [`Store::invocation_output`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct InvocationRecord {
    /// Position in the invocation log, increasing from 1.
    pub seq: i64,
    /// `inv-` and the zero-padded seq, e.g. `inv-000042`.
    pub invocation_id: String,
    /// See [`NewInvocation::source_id`].
    pub source_id: String,
    /// See [`NewInvocation::tool`].
    pub tool: String,
    /// See [`NewInvocation::args`].
    pub args: String,
    /// See [`NewInvocation::status`].
    pub status: InvocationStatus,
    /// See [`NewInvocation::reason`].
    pub reason: Option<String>,
    /// See [`NewInvocation::cached_from`].
    pub cached_from: Option<String>,
    /// Lowercase hex sha256 of the output.
    pub output_sha256: String,
    /// Output length in bytes.
    pub output_size: u64,
    /// True when the output is stored inline rather than under `objects/`.
    pub output_inline: bool,
    /// See [`NewInvocation::agent`].
    pub agent: String,
    /// See [`NewInvocation::task_id`].
    pub task_id: String,
    /// See [`NewInvocation::ts`].
    #[ts(type = "string")]
    pub ts: Timestamp,
    /// See [`NewInvocation::duration_ms`].
    pub duration_ms: u64,
    /// See [`NewInvocation::versions`].
    pub versions: Versions,
    /// See [`NewInvocation::idempotency_key`].
    pub idempotency_key: Option<String>,
}

const SELECT: &str = "SELECT seq, invocation_id, source_id, tool, args, status, reason, \
                      cached_from, output_sha256, output_size, output_inline IS NOT NULL, agent, \
                      task_id, ts, duration_ms, versions, idempotency_key FROM invocations";

fn from_row(row: &Row<'_>) -> rusqlite::Result<InvocationRecord> {
    Ok(InvocationRecord {
        seq: row.get(0)?,
        invocation_id: row.get(1)?,
        source_id: row.get(2)?,
        tool: row.get(3)?,
        args: row.get(4)?,
        status: parse_column(row, 5, InvocationStatus::parse)?,
        reason: row.get(6)?,
        cached_from: row.get(7)?,
        output_sha256: row.get(8)?,
        output_size: row.get(9)?,
        output_inline: row.get(10)?,
        agent: row.get(11)?,
        task_id: row.get(12)?,
        ts: ts_column(row, 13)?,
        duration_ms: row.get(14)?,
        versions: json_column(row, 15)?,
        idempotency_key: row.get(16)?,
    })
}

fn select(
    conn: &Connection,
    filter: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<InvocationRecord>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} {filter}"))?;
    let records = stmt
        .query_map(params, from_row)?
        .collect::<rusqlite::Result<_>>()?;
    Ok(records)
}

fn select_one(
    conn: &Connection,
    filter: &str,
    params: impl rusqlite::Params,
) -> Result<Option<InvocationRecord>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} {filter}"))?;
    Ok(stmt.query_row(params, from_row).optional()?)
}

impl Store {
    /// Records a tool call and stores its output, inline up to [`INLINE_OUTPUT_MAX`] bytes,
    /// otherwise as an object written (and fsynced) before the row that names it.
    ///
    /// A repeated idempotency key returns the first record when source, tool, args and output
    /// hash agree, and is an [`StoreError::IdempotencyConflict`] otherwise.
    pub fn record_invocation(&mut self, inv: &NewInvocation) -> Result<InvocationRecord> {
        let sha = sha256_hex(&inv.output);
        let inline = inv.output.len() <= INLINE_OUTPUT_MAX;
        if !inline {
            objects::write_object(&self.work_dir, &sha, &inv.output)?;
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if let Some(key) = &inv.idempotency_key
            && let Some(existing) = select_one(&tx, "WHERE idempotency_key = ?1", [key])?
        {
            let same = existing.source_id == inv.source_id
                && existing.tool == inv.tool
                && existing.args == inv.args
                && existing.output_sha256 == sha;
            return if same {
                Ok(existing)
            } else {
                Err(StoreError::IdempotencyConflict { key: key.clone() })
            };
        }
        let seq: i64 = tx.query_row(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM invocations",
            [],
            |row| row.get(0),
        )?;
        let values = [
            SqlValue::Integer(seq),
            SqlValue::Text(format!("inv-{seq:06}")),
            SqlValue::Text(inv.source_id.clone()),
            SqlValue::Text(inv.tool.clone()),
            SqlValue::Text(inv.args.clone()),
            SqlValue::Text(inv.status.as_str().to_owned()),
            inv.reason.clone().map_or(SqlValue::Null, SqlValue::Text),
            inv.cached_from
                .clone()
                .map_or(SqlValue::Null, SqlValue::Text),
            SqlValue::Text(sha.clone()),
            SqlValue::Integer(i64::try_from(inv.output.len()).unwrap_or(i64::MAX)),
            SqlValue::Text(inv.agent.clone()),
            SqlValue::Text(inv.task_id.clone()),
            SqlValue::Text(inv.ts.to_string()),
            SqlValue::Integer(i64::try_from(inv.duration_ms).unwrap_or(i64::MAX)),
            SqlValue::Text(serde_json::to_string(&inv.versions)?),
            inv.idempotency_key
                .clone()
                .map_or(SqlValue::Null, SqlValue::Text),
        ];
        let prev = chain::last_hash(&tx, "invocations")?;
        let refs: Vec<ValueRef<'_>> = values.iter().map(ValueRef::from).collect();
        let hash = chain::row_hash("invocations", &prev, &refs);
        let inline_output = inline.then_some(inv.output.as_slice());
        let mut params: Vec<&dyn rusqlite::ToSql> = values.iter().map(|v| v as _).collect();
        params.extend([&inline_output as &dyn rusqlite::ToSql, &prev, &hash]);
        tx.prepare_cached(
            "INSERT INTO invocations (seq, invocation_id, source_id, tool, args, status, reason, \
             cached_from, output_sha256, output_size, agent, task_id, ts, duration_ms, versions, \
             idempotency_key, output_inline, prev_hash, row_hash) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, \
             ?18, ?19)",
        )?
        .execute(params.as_slice())?;
        let record = select_one(&tx, "WHERE seq = ?1", [seq])?;
        tx.commit()?;
        record.ok_or_else(|| StoreError::NotFound {
            invocation_id: format!("inv-{seq:06}"),
        })
    }

    /// The invocation with this id, if any.
    pub fn invocation(&self, invocation_id: &str) -> Result<Option<InvocationRecord>> {
        select_one(&self.conn, "WHERE invocation_id = ?1", [invocation_id])
    }

    /// The calls an agent made for one task, in order.
    pub fn invocations_for(&self, agent: &str, task_id: &str) -> Result<Vec<InvocationRecord>> {
        select(
            &self.conn,
            "WHERE agent = ?1 AND task_id = ?2 ORDER BY seq",
            [agent, task_id],
        )
    }

    /// The successful runs of the same call (source, tool, canonical args), oldest first: the
    /// candidates a cache may serve. The caller picks the first whose tool version matches and
    /// whose stored output still matches its hash, so a run of an older tool version or an
    /// output damaged on disk never hides a good answer recorded later.
    pub fn cache_candidates(
        &self,
        source_id: &str,
        tool: &str,
        args: &str,
    ) -> Result<Vec<InvocationRecord>> {
        select(
            &self.conn,
            "WHERE source_id = ?1 AND tool = ?2 AND args = ?3 AND status = 'ok' ORDER BY seq",
            [source_id, tool, args],
        )
    }

    /// The calls recorded after `after_seq`, in order (for following a run as it goes).
    pub fn invocations_after(&self, after_seq: i64) -> Result<Vec<InvocationRecord>> {
        select(&self.conn, "WHERE seq > ?1 ORDER BY seq", [after_seq])
    }

    /// How many calls are recorded.
    pub fn invocation_count(&self) -> Result<u64> {
        let n: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM invocations", [], |row| row.get(0))?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Every recorded call, in order (use [`Store::for_each_invocation`] for large logs).
    pub fn all_invocations(&self) -> Result<Vec<InvocationRecord>> {
        select(&self.conn, "ORDER BY seq", [])
    }

    /// Streams every recorded call to `f`, in order; an error from `f` stops the scan.
    pub fn for_each_invocation<E: From<StoreError>>(
        &self,
        mut f: impl FnMut(InvocationRecord) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("{SELECT} ORDER BY seq"))
            .map_err(StoreError::from)?;
        let mut rows = stmt.query([]).map_err(StoreError::from)?;
        while let Some(row) = rows.next().map_err(StoreError::from)? {
            f(from_row(row).map_err(StoreError::from)?)?;
        }
        Ok(())
    }

    /// The output of an invocation, re-hashed: bytes that no longer match the recorded sha256
    /// are an [`StoreError::OutputMismatch`] (this is how tampering is detected).
    pub fn invocation_output(&self, invocation_id: &str) -> Result<Vec<u8>> {
        let row: Option<(String, Option<Vec<u8>>)> = self
            .conn
            .prepare_cached(
                "SELECT output_sha256, output_inline FROM invocations WHERE invocation_id = ?1",
            )?
            .query_row([invocation_id], |row| Ok((row.get(0)?, row.get(1)?)))
            .optional()?;
        let Some((expected, inline)) = row else {
            return Err(StoreError::NotFound {
                invocation_id: invocation_id.to_owned(),
            });
        };
        let (bytes, path) = match inline {
            Some(bytes) => (bytes, self.db_path()),
            None => {
                let path = self.object_path(&expected);
                (std::fs::read(&path).map_err(StoreError::io(&path))?, path)
            }
        };
        let actual = sha256_hex(&bytes);
        if actual != expected {
            return Err(StoreError::OutputMismatch {
                invocation_id: invocation_id.to_owned(),
                expected,
                actual,
                path,
            });
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_through_their_column_names() {
        for status in [
            InvocationStatus::Ok,
            InvocationStatus::Failed,
            InvocationStatus::TimedOut,
            InvocationStatus::TooLarge,
            InvocationStatus::Cached,
        ] {
            assert_eq!(InvocationStatus::parse(status.as_str()), Ok(status));
            assert_eq!(
                serde_json::to_value(status).unwrap(),
                serde_json::Value::String(status.as_str().to_owned())
            );
        }
        assert!(InvocationStatus::parse("maybe").is_err());
    }
}
