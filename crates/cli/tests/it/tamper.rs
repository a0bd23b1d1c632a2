//! A tampered case log is seen (issue 24): each edit that used to pass `verify`, `status` and
//! `report` — made on the file with the append-only triggers dropped, or appended through the
//! store with its triggers in place — now makes `masf verify` exit 1 naming the first altered,
//! missing or inserted seq.

use std::path::Path;

use masf_store::{ActorKind, NewEvent, Store};
use serde_json::Value;

use crate::support::{demo_subset, masf, masf_ok, run_case};

fn text(out: &std::process::Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs `sql` on the store's file with every trigger dropped first.
fn edit(work: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(work.join(masf_store::DB_FILE)).unwrap();
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

/// The demo case, run, with one examiner decision (a retraction) and a report written after it.
struct Decided {
    _dir: tempfile::TempDir,
    case: String,
    work: std::path::PathBuf,
    report: std::path::PathBuf,
    decision: i64,
    root: std::path::PathBuf,
}

fn decided() -> Decided {
    let dir = tempfile::tempdir().unwrap();
    // Two sources whose people link: a live edge for the examiner to retract.
    let case = demo_subset(dir.path(), &["src-usb", "src-iphone"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();
    run_case(&case, &work, &dir.path().join("out-run"));
    let links: Value =
        serde_json::from_str(&masf_ok(&["links", &case, "--work", w, "--json"])).unwrap();
    let edge = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["state"] == "live")
        .expect("a live edge")["id"]
        .as_str()
        .unwrap()
        .to_owned();
    masf_ok(&[
        "retract",
        &case,
        "--work",
        w,
        &edge,
        "--reason",
        "not the same person",
    ]);
    let report = dir.path().join("report");
    masf_ok(&[
        "report",
        &case,
        "--work",
        w,
        "--out",
        report.to_str().unwrap(),
    ]);
    let decision = Store::open_read_only(&work)
        .unwrap()
        .events_of_kind("SameAsRetracted")
        .unwrap()[0]
        .seq;
    Decided {
        root: dir.path().to_path_buf(),
        _dir: dir,
        case,
        work,
        report: report.join("report.json"),
        decision,
    }
}

impl Decided {
    /// A copy of the case's work folder to tamper with.
    fn copy(&self, name: &str) -> std::path::PathBuf {
        let to = self.root.join(name);
        copy_dir(&self.work, &to);
        to
    }

    /// `masf verify` against the report written after the decision: must exit 1 and say
    /// `expected`.
    fn refused(&self, work: &Path, what: &str, expected: &str) {
        let out = masf(&[
            "verify",
            &self.case,
            "--work",
            work.to_str().unwrap(),
            "--against",
            self.report.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{what}:\n{}", text(&out));
        assert!(
            text(&out).contains(expected),
            "{what}: verify does not say {expected:?}:\n{}",
            text(&out)
        );
    }
}

#[test]
fn every_tampering_of_the_log_makes_verify_name_the_first_bad_seq() {
    let case = decided();
    let d = case.decision;
    // Untouched, the case verifies against its report, which prints the chain's heads.
    let w = case.work.to_str().unwrap();
    let ok = masf(&[
        "verify",
        &case.case,
        "--work",
        w,
        "--against",
        case.report.to_str().unwrap(),
    ]);
    assert!(ok.status.success(), "{}", text(&ok));
    assert!(
        text(&ok).contains("head seq") && text(&ok).contains("still in the store, unchanged"),
        "{}",
        text(&ok)
    );
    let html = std::fs::read_to_string(case.report.with_file_name("report.html")).unwrap();
    assert!(
        html.contains("masf verify --against report.json"),
        "the report prints the chain"
    );

    let store = Store::open_read_only(&case.work).unwrap();
    let events = store.events(0).unwrap();
    let last = events.last().unwrap().seq;
    let fact = events
        .iter()
        .find(|e| {
            e.kind == "PhenomenonRecorded"
                && e.payload["phenomenon"]["verified_facts"]
                    .as_array()
                    .is_some_and(|f| !f.is_empty())
        })
        .expect("a phenomenon with a verified fact");
    let fact_seq = fact.seq;
    let inv_id = fact.payload["phenomenon"]["verified_facts"][0]["invocation_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let output = store.invocation_output(&inv_id).unwrap();
    // Another value found in the same output: its first eight characters, or its last.
    let value = fact.payload["phenomenon"]["verified_facts"][0]["value"]
        .as_str()
        .unwrap()
        .to_owned();
    let text_out = String::from_utf8_lossy(&output).into_owned();
    let other: String = {
        let head: String = text_out
            .chars()
            .filter(|c| c.is_alphanumeric())
            .take(8)
            .collect();
        if head != value {
            head
        } else {
            text_out
                .chars()
                .rev()
                .take(8)
                .collect::<String>()
                .chars()
                .rev()
                .collect()
        }
    };
    let middle = events
        .iter()
        .find(|e| e.seq > 2 && e.seq < d && e.kind == "PhenomenonRecorded")
        .unwrap()
        .seq;
    let invocations = store.invocation_count().unwrap() as i64;
    drop(store);

    let at_decision = format!("events seq {d}: the hash chain breaks here");
    let edits: Vec<(&str, String, String)> = vec![
        (
            "the examiner's reason changed",
            format!(
                "UPDATE events SET payload = json_set(payload, '$.reason', 'they are one person') \
                 WHERE seq = {d}"
            ),
            at_decision.clone(),
        ),
        (
            "a retraction turned into an approval",
            format!("UPDATE events SET kind = 'SameAsApproved' WHERE seq = {d}"),
            at_decision.clone(),
        ),
        (
            "who decided and when rewritten",
            format!(
                "UPDATE events SET actor_id = 'someone else', ts = '2020-01-01T00:00:00Z', \
                 payload = json_set(payload, '$.by', 'someone else', '$.at', \
                 '2020-01-01T00:00:00Z') WHERE seq = {d}"
            ),
            at_decision.clone(),
        ),
        (
            "a fact changed to another value found in its output",
            format!(
                "UPDATE events SET payload = json_set(payload, \
                 '$.phenomenon.verified_facts[0].value', '{}') WHERE seq = {fact_seq}",
                other.replace('\'', "''")
            ),
            format!("events seq {fact_seq}: the hash chain breaks here"),
        ),
        (
            "the last events deleted, and the sequence set back to hide it",
            format!(
                "DELETE FROM events WHERE seq > {}; \
                 UPDATE sqlite_sequence SET seq = {} WHERE name = 'events'",
                last - 3,
                last - 3
            ),
            format!("events seq {last} is no longer in the store"),
        ),
        (
            "an event deleted from the middle",
            format!("DELETE FROM events WHERE seq = {middle}"),
            format!("events seq {}: the hash chain breaks here", middle + 1),
        ),
        (
            "an invocation deleted",
            format!("DELETE FROM invocations WHERE seq = {}", invocations / 2),
            format!(
                "invocations seq {}: the hash chain breaks here",
                invocations / 2 + 1
            ),
        ),
    ];
    for (i, (what, sql, expected)) in edits.iter().enumerate() {
        let work = case.copy(&format!("edited-{i}"));
        edit(&work, sql);
        case.refused(&work, what, expected);
    }

    // A decision slipped in through the store itself, triggers and chain intact: dated back
    // before the graph it claims, or naming none.
    let decision = Store::open_read_only(&case.work)
        .unwrap()
        .events_of_kind("SameAsRetracted")
        .unwrap()
        .remove(0);
    let backdated = |causation_seq: Option<i64>, ts: jiff::Timestamp| {
        let mut payload = decision.payload.clone();
        payload["number"] = Value::from(2);
        payload["reason"] = Value::from("approved long ago");
        payload["at"] = Value::from(ts.to_string());
        NewEvent {
            kind: "SameAsApproved".to_owned(),
            payload,
            actor_kind: ActorKind::Examiner,
            actor_id: decision.actor_id.clone(),
            idempotency_key: "forged-decision".to_owned(),
            causation_seq,
            ts,
            versions: decision.versions.clone(),
        }
    };
    let first = Store::open_read_only(&case.work)
        .unwrap()
        .events(0)
        .unwrap()[0]
        .clone();
    for (i, (what, event)) in [
        (
            "a decision naming an early graph, dated just after it",
            backdated(Some(first.seq), first.ts),
        ),
        ("a decision naming no graph", backdated(None, first.ts)),
    ]
    .into_iter()
    .enumerate()
    {
        let work = case.copy(&format!("inserted-{i}"));
        let seq = Store::open(&work).unwrap().append(&event).unwrap().seq;
        case.refused(&work, what, &format!("event {seq}: SameAsApproved"));
    }
}
