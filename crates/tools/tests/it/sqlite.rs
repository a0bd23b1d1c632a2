//! sqlite_tables / sqlite_query on a working copy: WAL-only rows seen, writes refused, evidence
//! untouched.

use masf_store::InvocationStatus;
use masf_tools::{Catalog, Limits};
use serde_json::json;

use crate::support::{call, evidence, invoker, iphone, run, store};

const SMS: &str = "/private/var/mobile/Library/SMS/sms.db";
const WALLET: &str = "0x1850cE0E73407A9997C467BABc60fe887C567625";
const TX: &str = "0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90";

#[test]
fn the_wal_only_messages_are_returned_and_the_evidence_is_unchanged() {
    let zip = evidence("iphone_ffs.zip");
    let before = masf_evidence::hash_file(&zip, &mut |_| {}).unwrap();
    let mtime = std::fs::metadata(&zip).unwrap().modified().unwrap();

    let tables = run(&iphone(), "sqlite_tables", json!({"path": SMS}));
    assert!(tables.text.contains("table\tmessage\t"), "{}", tables.text);

    let q = run(
        &iphone(),
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT ROWID, text FROM message ORDER BY ROWID"}),
    );
    assert!(q.text.starts_with("ROWID\ttext\n"), "{}", q.text);
    let row6 = q
        .text
        .lines()
        .find(|l| l.starts_with("6\t"))
        .expect("row 6 (WAL only)");
    assert!(row6.contains(WALLET), "{row6}");
    let row7 = q
        .text
        .lines()
        .find(|l| l.starts_with("7\t"))
        .expect("row 7 (WAL only)");
    assert!(row7.contains(TX), "{row7}");
    let s = q.structured.unwrap();
    assert_eq!(s["copied"], json!(["-wal", "-shm"]));
    assert_eq!(s["columns"], json!(["ROWID", "text"]));

    // Byte-identical on a second run.
    let again = run(
        &iphone(),
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT ROWID, text FROM message ORDER BY ROWID"}),
    );
    assert_eq!(again.text, q.text);

    let after = masf_evidence::hash_file(&zip, &mut |_| {}).unwrap();
    assert_eq!(before, after);
    assert_eq!(std::fs::metadata(&zip).unwrap().modified().unwrap(), mtime);
}

#[test]
fn anything_but_one_select_is_refused_and_recorded_failed() {
    let (_dir, mut store) = store();
    let inv = invoker(Catalog::standard(), Limits::default());
    let src = iphone();
    for sql in [
        "UPDATE message SET text = 'x'",
        "DELETE FROM message",
        "SELECT 1; DELETE FROM message",
        "PRAGMA journal_mode = DELETE",
        "ATTACH DATABASE '/tmp/x.db' AS x",
        "WITH t AS (SELECT 1) DELETE FROM message",
    ] {
        let r = call(
            &inv,
            &mut store,
            &src,
            "sqlite_query",
            json!({"path": SMS, "sql": sql}),
            "a",
            "t",
            1,
        );
        assert_eq!(
            r.record.status,
            InvocationStatus::Failed,
            "{sql}: {:?} {}",
            r.record.reason,
            r.output.text
        );
        let reason = r.record.reason.unwrap();
        assert!(reason.contains("SELECT"), "{sql}: {reason}");
    }
    let ok = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT COUNT(*) AS n FROM message"}),
        "a",
        "t",
        2,
    );
    assert_eq!(ok.record.status, InvocationStatus::Ok);
    assert!(ok.output.text.starts_with("n\n"));
}

const ENDLESS: &str =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

#[test]
fn a_query_past_its_deadline_is_interrupted() {
    let started = std::time::Instant::now();
    masf_tools::deadline::set(Some(started + std::time::Duration::from_millis(200)));
    let result = Catalog::standard()
        .get("sqlite_query")
        .unwrap()
        .run(&iphone(), &json!({"path": SMS, "sql": ENDLESS}));
    masf_tools::deadline::set(None);
    let err = result.unwrap_err().to_string();
    assert!(err.contains("interrupt"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn an_endless_query_is_recorded_timed_out() {
    let (_dir, mut store) = store();
    let limits = Limits {
        timeout: std::time::Duration::from_millis(300),
        ..Limits::default()
    };
    let inv = invoker(Catalog::standard(), limits);
    let src = iphone();
    let r = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": SMS, "sql": ENDLESS}),
        "a",
        "t",
        1,
    );
    assert_eq!(r.record.status, InvocationStatus::TimedOut);
    let next = call(
        &inv,
        &mut store,
        &src,
        "sqlite_query",
        json!({"path": SMS, "sql": "SELECT 1 AS one"}),
        "a",
        "t",
        2,
    );
    assert_eq!(next.record.status, InvocationStatus::Ok);
    assert_eq!(next.output.text, "one\n1\n");
}
