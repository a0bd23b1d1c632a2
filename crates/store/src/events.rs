//! The append-only event log.

use jiff::Timestamp;
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Result, Store, StoreError, Versions, chain, json_column, parse_column, ts_column};

/// Who did something: the `actor_kind` of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ActorKind {
    /// The human examiner.
    Examiner,
    /// An agent (deterministic or LLM).
    Agent,
    /// The application itself (intake, orchestrator, migrations of state).
    System,
}

impl ActorKind {
    /// The name stored in the `actor_kind` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Examiner => "examiner",
            Self::Agent => "agent",
            Self::System => "system",
        }
    }

    fn parse(text: &str) -> std::result::Result<Self, String> {
        [Self::Examiner, Self::Agent, Self::System]
            .into_iter()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| format!("unknown actor kind {text:?}"))
    }
}

/// An event to append. The time is the caller's: the store never reads the clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewEvent {
    /// What happened, e.g. `fact.recorded`; its meaning belongs to the callers.
    pub kind: String,
    /// The event's data.
    pub payload: Value,
    /// Who did it.
    pub actor_kind: ActorKind,
    /// Which examiner, agent or system part did it.
    pub actor_id: String,
    /// Unique per intended event: appending the same key again returns the first event.
    pub idempotency_key: String,
    /// The earlier event that caused this one (a correction points at what it corrects).
    pub causation_seq: Option<i64>,
    /// When it happened, stored as RFC 3339 in UTC.
    pub ts: Timestamp,
    /// Versions of the tool, app, model and prompt involved.
    pub versions: Versions,
}

/// Outcome of appending one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appended {
    /// The event's sequence number: the new one, or the existing one for a repeated key.
    pub seq: i64,
    /// False when an event with the same idempotency key and content was already stored.
    pub inserted: bool,
}

/// What a conditional append watches: events of these kinds after this seq.
#[derive(Debug, Clone, Copy)]
pub struct Watch<'a> {
    /// The last seq the writer has seen.
    pub after_seq: i64,
    /// The kinds whose newer events would make the writer's batch stale.
    pub kinds: &'a [&'a str],
}

/// Outcome of [`Store::append_batch_unless_newer`].
#[derive(Debug, Clone, PartialEq)]
pub enum Guarded {
    /// Nothing newer: the batch is stored (results in input order).
    Appended(Vec<Appended>),
    /// Events of the watched kinds were appended after the watched seq; nothing was stored.
    Newer(Vec<StoredEvent>),
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct StoredEvent {
    /// Position in the log, increasing from 1.
    pub seq: i64,
    /// See [`NewEvent::kind`].
    pub kind: String,
    /// See [`NewEvent::payload`].
    pub payload: Value,
    /// See [`NewEvent::actor_kind`].
    pub actor_kind: ActorKind,
    /// See [`NewEvent::actor_id`].
    pub actor_id: String,
    /// See [`NewEvent::idempotency_key`].
    pub idempotency_key: String,
    /// See [`NewEvent::causation_seq`].
    pub causation_seq: Option<i64>,
    /// See [`NewEvent::ts`].
    #[ts(type = "string")]
    pub ts: Timestamp,
    /// See [`NewEvent::versions`].
    pub versions: Versions,
}

const SELECT: &str = "SELECT seq, kind, payload, actor_kind, actor_id, idempotency_key, \
                      causation_seq, ts, versions FROM events";

fn from_row(row: &Row<'_>) -> rusqlite::Result<StoredEvent> {
    Ok(StoredEvent {
        seq: row.get(0)?,
        kind: row.get(1)?,
        payload: json_column(row, 2)?,
        actor_kind: parse_column(row, 3, ActorKind::parse)?,
        actor_id: row.get(4)?,
        idempotency_key: row.get(5)?,
        causation_seq: row.get(6)?,
        ts: ts_column(row, 7)?,
        versions: json_column(row, 8)?,
    })
}

/// Appends one event inside the caller's transaction, or returns the event already stored under
/// its idempotency key. Time and versions are not compared: a resumed run stamps them anew.
fn append_in(conn: &Connection, event: &NewEvent) -> Result<Appended> {
    let existing = conn
        .prepare_cached(&format!("{SELECT} WHERE idempotency_key = ?1"))?
        .query_row([&event.idempotency_key], from_row)
        .optional()?;
    if let Some(existing) = existing {
        let same = existing.kind == event.kind
            && existing.payload == event.payload
            && existing.actor_kind == event.actor_kind
            && existing.actor_id == event.actor_id;
        return if same {
            Ok(Appended {
                seq: existing.seq,
                inserted: false,
            })
        } else {
            Err(StoreError::IdempotencyConflict {
                key: event.idempotency_key.clone(),
            })
        };
    }
    if let Some(cause) = event.causation_seq {
        let cause_ts: Option<String> = conn
            .prepare_cached("SELECT ts FROM events WHERE seq = ?1")?
            .query_row([cause], |row| row.get(0))
            .optional()?;
        let cause_ts = cause_ts.ok_or(StoreError::Causation {
            key: event.idempotency_key.clone(),
            causation_seq: cause,
            problem: "no such event".to_owned(),
        })?;
        if cause_ts.parse::<Timestamp>().is_ok_and(|t| event.ts < t) {
            return Err(StoreError::Causation {
                key: event.idempotency_key.clone(),
                causation_seq: cause,
                problem: format!("its time {} is before that event's {cause_ts}", event.ts),
            });
        }
    }
    // The seq AUTOINCREMENT would give, so that the row's hash can cover it.
    let seq: i64 = conn
        .prepare_cached(
            "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0), \
             COALESCE((SELECT MAX(seq) FROM events), 0)) + 1",
        )?
        .query_row([], |row| row.get(0))?;
    let values = [
        SqlValue::Integer(seq),
        SqlValue::Text(event.kind.clone()),
        SqlValue::Text(serde_json::to_string(&event.payload)?),
        SqlValue::Text(event.actor_kind.as_str().to_owned()),
        SqlValue::Text(event.actor_id.clone()),
        SqlValue::Text(event.idempotency_key.clone()),
        event
            .causation_seq
            .map_or(SqlValue::Null, SqlValue::Integer),
        SqlValue::Text(event.ts.to_string()),
        SqlValue::Text(serde_json::to_string(&event.versions)?),
    ];
    let prev = chain::last_hash(conn, "events")?;
    let refs: Vec<ValueRef<'_>> = values.iter().map(ValueRef::from).collect();
    let hash = chain::row_hash("events", &prev, &refs);
    let mut params: Vec<&dyn rusqlite::ToSql> = values.iter().map(|v| v as _).collect();
    params.push(&prev);
    params.push(&hash);
    conn.prepare_cached(
        "INSERT INTO events (seq, kind, payload, actor_kind, actor_id, idempotency_key, \
         causation_seq, ts, versions, prev_hash, row_hash) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params.as_slice())?;
    Ok(Appended {
        seq,
        inserted: true,
    })
}

impl Store {
    /// Appends one event. A repeated idempotency key with the same kind, payload and actor
    /// returns the stored event's seq with `inserted: false`; with different content it is an
    /// [`StoreError::IdempotencyConflict`].
    pub fn append(&mut self, event: &NewEvent) -> Result<Appended> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let appended = append_in(&tx, event)?;
        tx.commit()?;
        Ok(appended)
    }

    /// Appends events in one transaction: either all are stored (or found under their keys) or
    /// none is. Results are in input order.
    pub fn append_batch(&mut self, events: &[NewEvent]) -> Result<Vec<Appended>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let appended = events
            .iter()
            .map(|event| append_in(&tx, event))
            .collect::<Result<Vec<_>>>()?;
        tx.commit()?;
        Ok(appended)
    }

    /// Appends events in one transaction, as [`Store::append_batch`] does, provided no event of
    /// one of `watch.kinds` was appended after `watch.after_seq`; otherwise appends nothing and
    /// returns those newer events, in order. The check and the append are one write
    /// transaction, so no other writer can slip an event in between: a writer that derives
    /// what it appends (record ids, numbers) from the events up to `after_seq` can never append
    /// something that contradicts what another writer stored meanwhile.
    pub fn append_batch_unless_newer(
        &mut self,
        events: &[NewEvent],
        watch: &Watch<'_>,
    ) -> Result<Guarded> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let newer = {
            let kinds = serde_json::to_string(watch.kinds)?;
            let mut stmt = tx.prepare_cached(&format!(
                "{SELECT} WHERE seq > ?1 AND kind IN (SELECT value FROM json_each(?2)) \
                 ORDER BY seq"
            ))?;
            stmt.query_map(params![watch.after_seq, kinds], from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?
        };
        if !newer.is_empty() {
            return Ok(Guarded::Newer(newer));
        }
        let appended = events
            .iter()
            .map(|event| append_in(&tx, event))
            .collect::<Result<Vec<_>>>()?;
        tx.commit()?;
        Ok(Guarded::Appended(appended))
    }

    /// The seq of the last event, 0 for an empty log.
    pub fn last_seq(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |row| {
                row.get(0)
            })?)
    }

    /// All events with `seq > after_seq`, in order (use [`Store::for_each_event`] for large logs).
    pub fn events(&self, after_seq: i64) -> Result<Vec<StoredEvent>> {
        self.try_fold(after_seq, None, Vec::new(), push)
    }

    /// All events of one kind, in order.
    pub fn events_of_kind(&self, kind: &str) -> Result<Vec<StoredEvent>> {
        self.try_fold(0, Some(kind), Vec::new(), push)
    }

    /// Streams the events with `seq > after_seq` to `f`, in order, one row in memory at a time;
    /// an error from `f` stops the scan and is returned.
    pub fn for_each_event<E: From<StoreError>>(
        &self,
        after_seq: i64,
        mut f: impl FnMut(StoredEvent) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        self.try_fold(after_seq, None, (), |(), event| f(event))
    }

    /// Rebuilds a projection: folds every event, in order, into `init`.
    pub fn fold<S>(&self, init: S, mut f: impl FnMut(S, &StoredEvent) -> S) -> Result<S> {
        self.try_fold(0, None, init, |state, event| Ok(f(state, &event)))
    }

    fn try_fold<S, E: From<StoreError>>(
        &self,
        after_seq: i64,
        kind: Option<&str>,
        init: S,
        mut f: impl FnMut(S, StoredEvent) -> std::result::Result<S, E>,
    ) -> std::result::Result<S, E> {
        let sql = match kind {
            None => format!("{SELECT} WHERE seq > ?1 ORDER BY seq"),
            Some(_) => format!("{SELECT} WHERE seq > ?1 AND kind = ?2 ORDER BY seq"),
        };
        let mut stmt = self.conn.prepare_cached(&sql).map_err(StoreError::from)?;
        let mut rows = match kind {
            None => stmt.query(params![after_seq]),
            Some(kind) => stmt.query(params![after_seq, kind]),
        }
        .map_err(StoreError::from)?;
        let mut state = init;
        while let Some(row) = rows.next().map_err(StoreError::from)? {
            state = f(state, from_row(row).map_err(StoreError::from)?)?;
        }
        Ok(state)
    }
}

fn push<T>(mut items: Vec<T>, item: T) -> Result<Vec<T>> {
    items.push(item);
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actor_kinds_round_trip_through_their_column_names() {
        for kind in [ActorKind::Examiner, ActorKind::Agent, ActorKind::System] {
            assert_eq!(ActorKind::parse(kind.as_str()), Ok(kind));
            assert_eq!(
                serde_json::to_value(kind).unwrap(),
                Value::String(kind.as_str().to_owned())
            );
        }
        assert!(ActorKind::parse("robot").is_err());
    }
}
