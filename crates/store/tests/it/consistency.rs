//! Two writers and one log: the conditional append refuses a batch made from a stale view, and
//! the store finds holes left by rows removed behind its triggers' back.

use masf_store::{Guarded, SeqGap, Watch};
use serde_json::json;

use crate::support::{event, invocation, open, raw};

fn of_kind(kind: &str, key: &str) -> masf_store::NewEvent {
    let mut e = event(key, json!({ "key": key }));
    e.kind = kind.to_owned();
    e
}

#[test]
fn a_batch_made_before_another_writers_event_of_a_watched_kind_is_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let mut mine = open(dir.path());
    let mut theirs = open(dir.path());
    mine.append(&of_kind("Record", "r1")).unwrap();
    let seen = mine.last_seq().unwrap();

    // Another connection appends an event of an unwatched kind, then one of a watched kind.
    theirs.append(&of_kind("Note", "n1")).unwrap();
    let watch = Watch {
        after_seq: seen,
        kinds: &["Record", "Decision"],
    };
    let stored = mine
        .append_batch_unless_newer(&[of_kind("Record", "r2")], &watch)
        .unwrap();
    assert!(
        matches!(&stored, Guarded::Appended(a) if a.len() == 1 && a[0].inserted),
        "{stored:?}"
    );
    let seen = mine.last_seq().unwrap();
    theirs.append(&of_kind("Decision", "d1")).unwrap();
    let before = mine.events(0).unwrap().len();
    let watch = Watch {
        after_seq: seen,
        kinds: &["Record", "Decision"],
    };
    let refused = mine
        .append_batch_unless_newer(&[of_kind("Record", "r3"), of_kind("Record", "r4")], &watch)
        .unwrap();
    match refused {
        Guarded::Newer(newer) => {
            assert_eq!(newer.len(), 1);
            assert_eq!(newer[0].idempotency_key, "d1");
            assert_eq!(newer[0].seq, seen + 1);
        }
        other => panic!("expected Newer, got {other:?}"),
    }
    assert_eq!(mine.events(0).unwrap().len(), before, "nothing was stored");

    // Seen up to date, the same batch goes in.
    let watch = Watch {
        after_seq: mine.last_seq().unwrap(),
        kinds: &["Record", "Decision"],
    };
    let stored = mine
        .append_batch_unless_newer(&[of_kind("Record", "r3"), of_kind("Record", "r4")], &watch)
        .unwrap();
    assert!(matches!(stored, Guarded::Appended(a) if a.len() == 2));
}

#[test]
fn holes_in_either_log_are_found_and_a_sound_store_has_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = open(dir.path());
    for n in 1..=6 {
        store
            .append(&event(&format!("e{n}"), json!({ "n": n })))
            .unwrap();
    }
    for n in 0..4u8 {
        store.record_invocation(&invocation(&[n])).unwrap();
    }
    assert_eq!(store.sequence_gaps().unwrap(), []);
    drop(store);

    // Remove rows the way only a raw connection with the triggers dropped can.
    let conn = raw(dir.path());
    conn.execute_batch(
        "DROP TRIGGER events_no_delete; DROP TRIGGER invocations_no_delete;
         DELETE FROM events WHERE seq IN (1, 3, 4, 6);
         DELETE FROM invocations WHERE seq = 4;",
    )
    .unwrap();
    drop(conn);
    let store = open(dir.path());
    let gaps = store.sequence_gaps().unwrap();
    let gap = |table, after, before| SeqGap {
        table,
        after,
        before,
    };
    assert_eq!(
        gaps,
        [
            gap("events", 0, 2),
            gap("events", 2, 5),
            gap("events", 5, 7),
            gap("invocations", 3, 5),
        ]
    );
    let said: Vec<String> = gaps.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "events seq 1 is missing",
            "events seq 3 to 4 are missing",
            "events seq 6 is missing",
            "invocations seq 4 is missing",
        ]
    );
}
