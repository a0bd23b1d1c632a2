//! UPDATE and DELETE on the logs fail in SQLite itself, even on a raw connection.

use serde_json::json;

use crate::support::{count, event, invocation, open, raw};

// With the chain's two hashes (any well-formed ones), so that what refuses the row is the
// append-only rule, not the rule that a row be chained.
const EVENT_COLUMNS: &str = "(seq, kind, payload, actor_kind, actor_id, idempotency_key, ts, \
     versions, prev_hash, row_hash)";
const INVOCATION_COLUMNS: &str = "(seq, invocation_id, source_id, tool, args, status, \
     output_sha256, output_size, agent, task_id, ts, duration_ms, versions, prev_hash, row_hash)";
const SHA: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

#[test]
fn rewriting_history_is_refused_by_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    store.append(&event("e1", json!({ "n": 1 }))).unwrap();
    store.append(&event("e2", json!({ "n": 2 }))).unwrap();
    store.record_invocation(&invocation(b"a")).unwrap();
    store.record_invocation(&invocation(b"b")).unwrap();
    let before = (store.events(0).unwrap(), store.all_invocations().unwrap());
    drop(store);

    let refused = [
        ("UPDATE events SET kind = 'rewritten'".to_owned(), "events"),
        (
            "UPDATE events SET payload = '{}' WHERE seq = 2".to_owned(),
            "events",
        ),
        ("DELETE FROM events".to_owned(), "events"),
        ("DELETE FROM events WHERE seq = 1".to_owned(), "events"),
        (
            format!(
                "INSERT OR REPLACE INTO events {EVENT_COLUMNS} \
                 VALUES (1, 'forged', '{{}}', 'system', 'x', 'fresh-key', '2024-01-01T00:00:00Z', '{{}}', '{SHA}', '{SHA}')"
            ),
            "events",
        ),
        (
            format!(
                "REPLACE INTO events {EVENT_COLUMNS} \
                 VALUES (NULL, 'forged', '{{}}', 'system', 'x', 'e1', '2024-01-01T00:00:00Z', '{{}}', '{SHA}', '{SHA}')"
            ),
            "events",
        ),
        (
            "UPDATE invocations SET status = 'failed'".to_owned(),
            "invocations",
        ),
        (
            format!("UPDATE invocations SET output_sha256 = '{SHA}' WHERE seq = 1"),
            "invocations",
        ),
        ("DELETE FROM invocations".to_owned(), "invocations"),
        (
            format!(
                "INSERT OR REPLACE INTO invocations {INVOCATION_COLUMNS} \
                 VALUES (1, 'inv-000001', 's', 't', '{{}}', 'ok', '{SHA}', 0, 'a', 'k', 'x', 0, '{{}}', '{SHA}', '{SHA}')"
            ),
            "invocations",
        ),
    ];
    let conn = raw(dir.path());
    for (sql, table) in &refused {
        let err = conn.execute_batch(sql).expect_err(sql);
        assert!(
            err.to_string()
                .contains(&format!("{table} are append-only")),
            "{sql}: {err}"
        );
    }
    assert_eq!(count(&conn, "events"), 2);
    assert_eq!(count(&conn, "invocations"), 2);
    drop(conn);

    let store = open(dir.path());
    assert_eq!(
        (store.events(0).unwrap(), store.all_invocations().unwrap()),
        before
    );
}
