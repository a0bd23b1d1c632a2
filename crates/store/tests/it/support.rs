//! Builders shared by the test modules.

use std::path::Path;

use jiff::Timestamp;
use masf_store::{ActorKind, InvocationStatus, NewEvent, NewInvocation, Store, Versions};
use serde_json::{Value, json};

pub fn ts(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap()
}

pub fn versions() -> Versions {
    Versions::from([
        ("app".to_owned(), "0.1.0".to_owned()),
        ("tool".to_owned(), "ls/1".to_owned()),
    ])
}

pub fn event(key: &str, payload: Value) -> NewEvent {
    NewEvent {
        kind: "fact.recorded".to_owned(),
        payload,
        actor_kind: ActorKind::Agent,
        actor_id: "triage-1".to_owned(),
        idempotency_key: key.to_owned(),
        causation_seq: None,
        ts: ts(1_700_000_000),
        versions: versions(),
    }
}

pub fn invocation(output: &[u8]) -> NewInvocation {
    NewInvocation {
        source_id: "src-usb".to_owned(),
        tool: "list_dir".to_owned(),
        args: json!({ "path": "/" }).to_string(),
        status: InvocationStatus::Ok,
        reason: None,
        cached_from: None,
        output: output.to_vec(),
        agent: "triage".to_owned(),
        task_id: "task-1".to_owned(),
        ts: ts(1_700_000_000),
        duration_ms: 12,
        versions: versions(),
        idempotency_key: None,
    }
}

pub fn open(dir: &Path) -> Store {
    Store::open(dir).unwrap()
}

/// A plain SQLite connection to the store's file, bypassing the store's API.
pub fn raw(dir: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(masf_store::DB_FILE)).unwrap()
}

pub fn count(conn: &rusqlite::Connection, table: &str) -> i64 {
    conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| {
        row.get(0)
    })
    .unwrap()
}
