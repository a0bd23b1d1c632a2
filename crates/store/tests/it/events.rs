//! Appending, idempotency, batches, reading back and folding.

use std::collections::BTreeMap;

use masf_store::{ActorKind, Appended, NewEvent, Store, StoreError, StoredEvent};
use serde_json::json;

use crate::support::{event, open, ts};

#[test]
fn an_event_reads_back_as_it_was_appended() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let first = event(
        "e1",
        json!({ "path": "/Users/x", "size": 1.5, "tags": ["a", "b"] }),
    );
    let mut second = event("e2", json!("a bare string"));
    second.kind = "examiner.retracted".to_owned();
    second.actor_kind = ActorKind::Examiner;
    second.causation_seq = Some(1);
    second.ts = "2024-03-10T01:02:03.456789Z".parse().unwrap();

    let appended = store
        .append_batch(&[first.clone(), second.clone()])
        .unwrap();
    assert_eq!(
        appended,
        [
            Appended {
                seq: 1,
                inserted: true
            },
            Appended {
                seq: 2,
                inserted: true
            }
        ]
    );
    assert_eq!(store.last_seq().unwrap(), 2);
    let stored = store.events(0).unwrap();
    assert_eq!(stored, [as_stored(1, &first), as_stored(2, &second)]);
    assert_eq!(store.events(1).unwrap(), [as_stored(2, &second)]);
    assert_eq!(
        store.events_of_kind("examiner.retracted").unwrap(),
        [as_stored(2, &second)]
    );
    assert!(store.events(2).unwrap().is_empty());
}

fn as_stored(seq: i64, e: &NewEvent) -> StoredEvent {
    StoredEvent {
        seq,
        kind: e.kind.clone(),
        payload: e.payload.clone(),
        actor_kind: e.actor_kind,
        actor_id: e.actor_id.clone(),
        idempotency_key: e.idempotency_key.clone(),
        causation_seq: e.causation_seq,
        ts: e.ts,
        versions: e.versions.clone(),
    }
}

#[test]
fn an_empty_log_has_seq_zero() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    assert_eq!(store.last_seq().unwrap(), 0);
    assert!(store.events(0).unwrap().is_empty());
}

#[test]
fn a_repeated_key_returns_the_first_event() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let e = event("once", json!({ "fact": 1 }));
    assert_eq!(
        store.append(&e).unwrap(),
        Appended {
            seq: 1,
            inserted: true
        }
    );
    // A resumed run re-stamps time and versions: still the same event.
    let mut again = e.clone();
    again.ts = ts(1_800_000_000);
    again
        .versions
        .insert("model".to_owned(), "other".to_owned());
    assert_eq!(
        store.append(&again).unwrap(),
        Appended {
            seq: 1,
            inserted: false
        }
    );
    assert_eq!(store.last_seq().unwrap(), 1);
    assert_eq!(store.events(0).unwrap()[0].ts, e.ts);
}

#[test]
fn a_repeated_key_with_other_content_is_a_conflict() {
    fn check(change: impl FnOnce(&mut NewEvent)) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = open(dir.path());
        let original = event("k", json!({ "fact": 1 }));
        store.append(&original).unwrap();
        let mut changed = original.clone();
        change(&mut changed);
        let err = store.append(&changed).unwrap_err();
        assert!(
            matches!(&err, StoreError::IdempotencyConflict { key } if key == "k"),
            "{err}"
        );
        assert_eq!(store.last_seq().unwrap(), 1);
    }
    check(|e| e.payload = json!({ "fact": 2 }));
    check(|e| e.kind = "fact.retracted".to_owned());
    check(|e| e.actor_kind = ActorKind::Examiner);
    check(|e| e.actor_id = "triage-2".to_owned());
}

#[test]
fn a_batch_is_all_or_nothing() {
    fn check(bad: NewEvent) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = open(dir.path());
        store.append(&event("k0", json!(0))).unwrap();
        let batch = [
            event("k1", json!(1)),
            event("k2", json!(2)),
            bad,
            event("k3", json!(3)),
        ];
        store.append_batch(&batch).unwrap_err();
        assert_eq!(store.last_seq().unwrap(), 1);
        assert_eq!(store.events(0).unwrap().len(), 1);
        // The same batch, fixed, goes in whole afterwards.
        let fixed = [
            event("k1", json!(1)),
            event("k2", json!(2)),
            event("k3", json!(3)),
        ];
        let appended = store.append_batch(&fixed).unwrap();
        assert_eq!(
            appended.iter().map(|a| a.seq).collect::<Vec<_>>(),
            [2, 3, 4]
        );
    }
    // An idempotency conflict midway.
    check(event("k0", json!("not what k0 was")));
    // A cause that does not exist (foreign key).
    let mut dangling = event("k9", json!(9));
    dangling.causation_seq = Some(42);
    check(dangling);
}

#[test]
fn a_batch_may_repeat_a_key_it_already_holds() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let e = event("k", json!(1));
    let appended = store.append_batch(&[e.clone(), e]).unwrap();
    assert_eq!(
        appended,
        [
            Appended {
                seq: 1,
                inserted: true
            },
            Appended {
                seq: 1,
                inserted: false
            }
        ]
    );
}

#[test]
fn streaming_visits_every_event_and_stops_on_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    let batch: Vec<_> = (0..500)
        .map(|i| event(&format!("k{i}"), json!(i)))
        .collect();
    store.append_batch(&batch).unwrap();

    let mut seen = Vec::new();
    store
        .for_each_event(100, |e| {
            seen.push(e.seq);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(seen, (101..=500).collect::<Vec<_>>());

    #[derive(Debug)]
    enum Stop {
        At(i64),
        Store,
    }
    impl From<StoreError> for Stop {
        fn from(_: StoreError) -> Self {
            Stop::Store
        }
    }
    let stopped = store.for_each_event(0, |e| if e.seq == 7 { Err(Stop::At(7)) } else { Ok(()) });
    assert!(matches!(stopped, Err(Stop::At(7))));
}

/// A small projection: per actor, the facts it recorded and the seq of its last event.
type Projection = BTreeMap<String, (Vec<serde_json::Value>, i64)>;

fn project(store: &Store) -> Projection {
    store
        .fold(Projection::new(), |mut state, e| {
            let entry = state.entry(e.actor_id.clone()).or_default();
            entry.0.push(e.payload.clone());
            entry.1 = e.seq;
            state
        })
        .unwrap()
}

#[test]
fn fold_rebuilds_the_same_state_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    for i in 0..30 {
        let mut e = event(&format!("k{i}"), json!({ "i": i }));
        e.actor_id = format!("agent-{}", i % 4);
        store.append(&e).unwrap();
    }
    let before = project(&store);
    assert_eq!(before.len(), 4);
    assert_eq!(before["agent-1"].1, 30);
    drop(store);

    assert_eq!(project(&open(dir.path())), before);
    assert_eq!(project(&Store::open_read_only(dir.path()).unwrap()), before);
}

#[test]
fn a_read_only_store_cannot_append() {
    let dir = tempfile::tempdir().unwrap();
    open(dir.path()).append(&event("k", json!(1))).unwrap();
    let mut store = Store::open_read_only(dir.path()).unwrap();
    let err = store.append(&event("k2", json!(2))).unwrap_err();
    assert!(matches!(err, StoreError::Sqlite(_)), "{err}");
    assert_eq!(store.last_seq().unwrap(), 1);
}

#[test]
fn a_missing_store_cannot_be_opened_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let err = Store::open_read_only(&dir.path().join("nowhere")).unwrap_err();
    assert!(matches!(err, StoreError::Io { .. }), "{err}");
}

#[test]
fn a_snapshot_does_not_see_what_another_connection_commits_during_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut writer = open(dir.path());
    writer.append(&event("e1", json!(1))).unwrap();
    let reader = open(dir.path());

    let (inside, heads_inside) = reader
        .read_snapshot(|store| {
            let before = store.events(0)?.len();
            // Another connection commits while the snapshot is open: it is not blocked…
            writer.append(&event("e2", json!(2))).unwrap();
            // …and the snapshot goes on seeing the log as it was, in every query.
            assert_eq!(store.events(0)?.len(), before);
            Ok::<_, StoreError>((store.last_seq()?, store.chain_heads()?))
        })
        .unwrap();
    assert_eq!(inside, 1);
    let events_head = heads_inside.iter().find(|h| h.table == "events").unwrap();
    assert_eq!((events_head.count, events_head.seq), (1, 1));
    // After it, the new event is seen.
    assert_eq!(reader.last_seq().unwrap(), 2);

    // A failing read ends the snapshot too: the next one starts afresh.
    let failed: Result<(), StoreError> =
        reader.read_snapshot(|_| Err(StoreError::from(rusqlite::Error::InvalidQuery)));
    assert!(failed.is_err());
    writer.append(&event("e3", json!(3))).unwrap();
    let seen = reader.read_snapshot(|store| store.last_seq()).unwrap();
    assert_eq!(seen, 3);
}
