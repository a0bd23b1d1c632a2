//! The hash chain over both logs: what the append-only triggers cannot stop (an edit of the file
//! with the triggers dropped) breaks the chain at the first row concerned.

use masf_store::chain::{GENESIS, row_hash};
use masf_store::{ChainBreak, StoreError};
use serde_json::json;

use crate::support::{event, invocation, open, raw, ts};

/// A store with five events and three invocations, written through the API.
fn filled(dir: &std::path::Path) {
    let mut store = open(dir);
    for n in 1..=5 {
        store
            .append(&event(&format!("e{n}"), json!({ "n": n })))
            .unwrap();
    }
    for output in [b"one".as_slice(), b"two", &[7u8; 20_000]] {
        store.record_invocation(&invocation(output)).unwrap();
    }
}

/// Runs `sql` on the file with every trigger dropped: what someone with the file can do.
fn tamper(dir: &std::path::Path, sql: &str) {
    let conn = raw(dir);
    let triggers: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for t in triggers {
        conn.execute_batch(&format!("DROP TRIGGER {t}")).unwrap();
    }
    conn.execute_batch(sql).unwrap();
}

fn breaks(dir: &std::path::Path) -> Vec<(String, i64)> {
    open(dir)
        .chain_breaks()
        .unwrap()
        .into_iter()
        .map(|b: ChainBreak| (b.table.to_owned(), b.seq))
        .collect()
}

#[test]
fn an_untouched_store_holds_its_chain_and_names_its_heads() {
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path());
    let store = open(dir.path());
    assert_eq!(store.chain_breaks().unwrap(), []);
    let heads = store.chain_heads().unwrap();
    assert_eq!(
        heads
            .iter()
            .map(|h| (h.table.as_str(), h.count, h.seq, h.upgraded_through))
            .collect::<Vec<_>>(),
        [("events", 5, 5, None), ("invocations", 3, 3, None)]
    );
    // The head is the last row's hash, and the first row hangs from the genesis hash.
    let conn = raw(dir.path());
    let (first_prev, last): (String, String) = conn
        .query_row(
            "SELECT (SELECT prev_hash FROM events WHERE seq = 1), \
                    (SELECT row_hash FROM events WHERE seq = 5)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (first_prev.as_str(), last.as_str()),
        (GENESIS, heads[0].hash.as_str())
    );
    assert_eq!(store.row_hash_at("events", 5).unwrap(), Some(last));
    assert_eq!(store.row_hash_at("events", 6).unwrap(), None);
}

#[test]
fn the_hash_is_recomputable_from_the_stored_columns_alone() {
    // What docs/case-integrity.md tells a third party to do, by hand: the row's columns as
    // stored, in order, after the domain, the table and the previous hash.
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path());
    let conn = raw(dir.path());
    let (prev, stored, seq, kind, payload, ak, aid, key, ts, versions): (
        String,
        String,
        i64,
        String,
        String,
        String,
        String,
        String,
        String,
        String,
    ) = conn
        .query_row(
            "SELECT prev_hash, row_hash, seq, kind, payload, actor_kind, actor_id, \
             idempotency_key, ts, versions FROM events WHERE seq = 2",
            [],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                ))
            },
        )
        .unwrap();
    let mut bytes = b"masf-chain-v1\0events\0".to_vec();
    bytes.extend(prev.as_bytes());
    bytes.push(b'I');
    bytes.extend(seq.to_le_bytes());
    for text in [&kind, &payload, &ak, &aid, &key] {
        bytes.push(b'T');
        bytes.extend((text.len() as u64).to_le_bytes());
        bytes.extend(text.as_bytes());
    }
    bytes.push(b'N'); // causation_seq
    for text in [&ts, &versions] {
        bytes.push(b'T');
        bytes.extend((text.len() as u64).to_le_bytes());
        bytes.extend(text.as_bytes());
    }
    let by_hand = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&bytes));
    assert_eq!(by_hand, stored);
    use rusqlite::types::ValueRef;
    let columns = [
        ValueRef::Integer(seq),
        ValueRef::Text(kind.as_bytes()),
        ValueRef::Text(payload.as_bytes()),
        ValueRef::Text(ak.as_bytes()),
        ValueRef::Text(aid.as_bytes()),
        ValueRef::Text(key.as_bytes()),
        ValueRef::Null,
        ValueRef::Text(ts.as_bytes()),
        ValueRef::Text(versions.as_bytes()),
    ];
    assert_eq!(row_hash("events", &prev, &columns), stored);
}

#[test]
fn every_edit_behind_the_triggers_breaks_the_chain_at_its_first_row() {
    let cases: &[(&str, &str, (&str, i64))] = &[
        (
            "a changed payload",
            "UPDATE events SET payload = '{\"n\":30}' WHERE seq = 3",
            ("events", 3),
        ),
        (
            "a changed actor",
            "UPDATE events SET actor_id = 'someone-else' WHERE seq = 2",
            ("events", 2),
        ),
        (
            "a changed time",
            "UPDATE events SET ts = '2020-01-01T00:00:00Z' WHERE seq = 4",
            ("events", 4),
        ),
        (
            "an event removed from the middle",
            "DELETE FROM events WHERE seq = 2",
            ("events", 3),
        ),
        (
            "the first event removed",
            "DELETE FROM events WHERE seq = 1",
            ("events", 2),
        ),
        (
            "a forged row with a made-up hash inserted",
            &format!(
                "INSERT INTO events (seq, kind, payload, actor_kind, actor_id, idempotency_key, \
                 ts, versions, prev_hash, row_hash) SELECT 6, 'forged', '{{}}', 'examiner', 'x', \
                 'forged', '2020-01-01T00:00:00Z', '{{}}', row_hash, '{GENESIS}' \
                 FROM events WHERE seq = 5"
            ),
            ("events", 6),
        ),
        (
            "two rows swapped",
            "UPDATE events SET seq = 100 WHERE seq = 2; UPDATE events SET seq = 2 WHERE seq = 3; \
             UPDATE events SET seq = 3 WHERE seq = 100",
            ("events", 2),
        ),
        (
            "an invocation's status changed",
            "UPDATE invocations SET status = 'failed', reason = 'x' WHERE seq = 2",
            ("invocations", 2),
        ),
        (
            "an invocation's recorded output hash changed",
            "UPDATE invocations SET output_sha256 = \
             'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' WHERE seq = 1",
            ("invocations", 1),
        ),
        (
            "an invocation removed",
            "DELETE FROM invocations WHERE seq = 1",
            ("invocations", 2),
        ),
        (
            "a hash wiped",
            "UPDATE invocations SET row_hash = NULL WHERE seq = 3",
            ("invocations", 3),
        ),
    ];
    for (what, sql, first) in cases {
        let dir = tempfile::tempdir().unwrap();
        filled(dir.path());
        tamper(dir.path(), sql);
        assert_eq!(
            breaks(dir.path()),
            [(first.0.to_owned(), first.1)],
            "{what}: {sql}"
        );
    }
}

#[test]
fn a_whole_chain_recomputed_after_an_edit_holds_but_its_head_changes() {
    // Someone who edits a row and recomputes every hash after it gets a chain that holds; what
    // gives them away is the head printed earlier (a report), which the store no longer has.
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path());
    let printed = open(dir.path()).chain_heads().unwrap()[0].clone();
    tamper(
        dir.path(),
        "UPDATE events SET payload = '{\"n\":30}' WHERE seq = 3; \
         UPDATE events SET prev_hash = NULL, row_hash = NULL WHERE seq >= 3",
    );
    // The migration's own backfill is the recomputation at hand: chain what has no hash.
    {
        let conn = raw(dir.path());
        let mut prev: String = conn
            .query_row("SELECT row_hash FROM events WHERE seq = 2", [], |r| {
                r.get(0)
            })
            .unwrap();
        for seq in 3..=5 {
            let hash = conn
                .query_row(
                    "SELECT seq, kind, payload, actor_kind, actor_id, idempotency_key, \
                     causation_seq, ts, versions FROM events WHERE seq = ?1",
                    [seq],
                    |row| {
                        let values = (0..9)
                            .map(|i| row.get_ref(i))
                            .collect::<rusqlite::Result<Vec<_>>>()?;
                        Ok(row_hash("events", &prev, &values))
                    },
                )
                .unwrap();
            conn.execute(
                "UPDATE events SET prev_hash = ?1, row_hash = ?2 WHERE seq = ?3",
                rusqlite::params![prev, hash, seq],
            )
            .unwrap();
            prev = hash;
        }
    }
    let store = open(dir.path());
    assert_eq!(store.chain_breaks().unwrap(), []);
    assert_ne!(
        store.row_hash_at("events", printed.seq).unwrap(),
        Some(printed.hash)
    );
}

#[test]
fn a_row_without_its_hashes_is_refused_even_on_a_raw_connection() {
    let dir = tempfile::tempdir().unwrap();
    filled(dir.path());
    let conn = raw(dir.path());
    let err = conn
        .execute_batch(
            "INSERT INTO events (kind, payload, actor_kind, actor_id, idempotency_key, ts, versions) \
             VALUES ('forged', '{}', 'examiner', 'x', 'forged', '2020-01-01T00:00:00Z', '{}')",
        )
        .unwrap_err();
    assert!(err.to_string().contains("hash-chained"), "{err}");
    assert_eq!(breaks(dir.path()), []);
}

#[test]
fn an_event_cannot_be_dated_before_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let cause = store.append(&event("cause", json!(1))).unwrap().seq;
    let mut early = event("early", json!(2));
    early.causation_seq = Some(cause);
    early.ts = ts(1_600_000_000);
    let err = store.append(&early).unwrap_err();
    assert!(
        matches!(&err, StoreError::Causation { causation_seq, .. } if *causation_seq == cause),
        "{err}"
    );
    assert!(err.to_string().contains("before that event"), "{err}");
    let mut orphan = event("orphan", json!(3));
    orphan.causation_seq = Some(99);
    let err = store.append(&orphan).unwrap_err();
    assert!(err.to_string().contains("no such event"), "{err}");
    // Dated at or after its cause, it is stored.
    let mut later = event("later", json!(4));
    later.causation_seq = Some(cause);
    assert_eq!(store.append(&later).unwrap().seq, 2);
    assert_eq!(store.chain_breaks().unwrap(), []);
}
