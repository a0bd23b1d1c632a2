//! `masf timeline` on a case store whose phenomena were recorded through a real agent session:
//! iPhone messages read with sqlite_query (Apple nanoseconds, WAL-only rows included) and USB
//! file times read with stat (FAT local times, Hong Kong), checked against the demo's ground
//! truth (tests/fixtures/demo/ground_truth.json).

use std::collections::BTreeMap;
use std::sync::Arc;

use masf_agents::{AgentCtx, PhenomenonDraft};
use masf_graph::{FactClaim, FactType, TimeEncoding, TimeMark};
use serde_json::{Value, json};

use crate::support::{masf, masf_ok, repo};

struct FixedClock;

impl masf_api::Clock for FixedClock {
    fn now(&self) -> jiff::Timestamp {
        jiff::Timestamp::from_second(1_764_000_000).expect("time")
    }
}

/// Records, as agent `timeline-test`, one phenomenon per iPhone message (its `date` marked
/// apple_nanos) and one per USB file time of /notes.txt and the deleted draft (fat_local).
/// Returns the number of marks recorded.
fn record_demo_times(case: &str, work: &str) -> usize {
    let ctx = masf_api::open_case(&masf_api::OpenCase {
        case_file: case.into(),
        work: Some(work.into()),
        config: None,
    })
    .expect("case opens");
    let session = masf_api::session(&ctx, Arc::new(FixedClock)).expect("session");
    let mut marks = 0;

    let phone =
        AgentCtx::new(&session, "timeline-test", "triage/src-iphone", "src-iphone").expect("agent");
    let found = phone
        .call("find_files", json!({"name_glob": "sms.db"}))
        .expect("find_files");
    let db = found
        .output
        .text
        .lines()
        .find_map(|l| l.rsplit('\t').next().filter(|p| p.ends_with("/sms.db")))
        .expect("sms.db")
        .to_string();
    let q = phone
        .call(
            "sqlite_query",
            json!({"path": db, "sql": "SELECT ROWID, date, is_from_me FROM message ORDER BY ROWID"}),
        )
        .expect("sqlite_query");
    let inv = q.record.invocation_id.clone();
    let text = q.output.text.clone();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    assert_eq!(header, ["ROWID", "date", "is_from_me"], "{text}");
    for line in lines.filter(|l| !l.is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        let [rowid, date, from_me] = cells[..] else {
            panic!("row {line:?}")
        };
        let v = phone
            .record(PhenomenonDraft {
                category: "messages".into(),
                title: format!("Message ROWID {rowid}"),
                facts: vec![
                    FactClaim {
                        fact_type: FactType::Timestamp,
                        value: date.into(),
                        invocation_id: inv.clone(),
                    },
                    FactClaim {
                        fact_type: FactType::Identifier,
                        value: rowid.into(),
                        invocation_id: inv.clone(),
                    },
                ],
                interpretation: "A message row of sms.db.".into(),
                times: vec![TimeMark {
                    fact: 0,
                    encoding: TimeEncoding::AppleNanos,
                    description: if from_me == "1" {
                        "Message sent"
                    } else {
                        "Message received"
                    }
                    .into(),
                }],
            })
            .expect("record");
        assert!(v.is_accepted(), "{v:?}");
        marks += 1;
    }

    let usb = AgentCtx::new(&session, "timeline-test", "triage/src-usb", "src-usb").expect("agent");
    for path in ["/notes.txt", "/Documents/transfer_log_draft.txt"] {
        let st = usb.call("stat", json!({"path": path})).expect("stat");
        assert!(
            st.record.reason.is_none(),
            "stat {path}: {:?}",
            st.record.reason
        );
        let mut facts = vec![FactClaim {
            fact_type: FactType::Path,
            value: path.into(),
            invocation_id: st.record.invocation_id.clone(),
        }];
        let mut times = Vec::new();
        for line in st.output.text.lines() {
            let Some((role, value)) = line.split_once(": ") else {
                continue;
            };
            if value.ends_with("(local)") || value == "unset" {
                times.push(TimeMark {
                    fact: facts.len(),
                    encoding: TimeEncoding::FatLocal,
                    description: format!("FAT {role}"),
                });
                facts.push(FactClaim {
                    fact_type: FactType::Timestamp,
                    value: value.into(),
                    invocation_id: st.record.invocation_id.clone(),
                });
            }
        }
        assert!(!times.is_empty(), "{}", st.output.text);
        marks += times.len();
        let v = usb
            .record(PhenomenonDraft {
                category: "files".into(),
                title: path.into(),
                facts,
                interpretation: "File times of the USB stick.".into(),
                times,
            })
            .expect("record");
        assert!(v.is_accepted(), "{v:?}");
    }
    marks
}

/// The planted UTC instants: iPhone messages by ROWID, USB FAT mtimes by path.
fn ground_truth() -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let gt: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("tests/fixtures/demo/ground_truth.json")).unwrap(),
    )
    .unwrap();
    let mut sms = BTreeMap::new();
    let mut fat = BTreeMap::new();
    for e in gt["timeline"].as_array().unwrap() {
        let w = &e["where"];
        let utc = e["utc"].as_str().unwrap().to_string();
        if w["path"] == "private/var/mobile/Library/SMS/sms.db" {
            sms.insert(w["key"]["ROWID"].to_string(), utc);
        } else if w["source"] == "src-usb" && w["read"] == "fat_mtime" {
            fat.insert(w["path"].as_str().unwrap().to_string(), utc);
        }
    }
    (sms, fat)
}

#[test]
fn masf_timeline_merges_recorded_times_and_exports_them() {
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    let work = work.path().to_str().unwrap();
    let marks = record_demo_times(case, work);

    let jsonl = masf_ok(&["timeline", case, "--work", work, "--jsonl"]);
    let entries: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), marks, "one entry per time mark");

    // Every message, the WAL-only ROWIDs 6 and 7 included, at its planted instant.
    let (sms, fat) = ground_truth();
    let messages: BTreeMap<String, String> = entries
        .iter()
        .filter(|e| e["source_id"] == "src-iphone")
        .map(|e| {
            (
                e["message"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("Message ROWID ")
                    .to_string(),
                e["utc"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(messages, sms);
    assert!(messages.contains_key("6") && messages.contains_key("7"));
    let seven = entries
        .iter()
        .find(|e| e["message"] == "Message ROWID 7")
        .unwrap();
    assert_eq!(seven["raw_encoding"], "apple_nanos");
    assert_eq!(seven["raw_value"], "761580300000000000");
    assert_eq!(seven["timestamp_desc"], "Message sent");
    assert_eq!(seven["datetime"], "2025-02-18T14:05:00.000000+00:00");
    assert_eq!(seven["case_time"], "2025-02-18T22:05:00+08:00");
    assert_eq!(seven["zone"], "UTC");

    // FAT modification times (the deleted draft's included), read in Hong Kong.
    for path in ["/notes.txt", "/Documents/transfer_log_draft.txt"] {
        let e = entries
            .iter()
            .find(|e| e["message"] == path && e["timestamp_desc"] == "FAT modified")
            .unwrap_or_else(|| panic!("{path} mtime"));
        assert_eq!(e["utc"], fat[path].as_str(), "{path}");
        assert_eq!(e["zone"], "Asia/Hong_Kong");
        assert_eq!(e["raw_encoding"], "fat_local");
    }

    // Sorted across sources (unconvertible entries, without a time, last).
    let times: Vec<&str> = entries.iter().filter_map(|e| e["utc"].as_str()).collect();
    let mut sorted = times.clone();
    sorted.sort_by_key(|t| t.parse::<jiff::Timestamp>().unwrap());
    assert_eq!(times, sorted);
    assert!(entries.iter().any(|e| e["source_id"] == "src-usb"));
    assert!(entries.iter().any(|e| e["source_id"] == "src-iphone"));

    // Filters: one source; a range in the case zone, [from, to).
    let usb_only = masf_ok(&[
        "timeline", case, "--work", work, "--jsonl", "--source", "src-usb",
    ]);
    assert!(
        usb_only
            .lines()
            .all(|l| l.contains("\"source_id\":\"src-usb\""))
    );
    assert_eq!(
        usb_only.lines().count(),
        entries
            .iter()
            .filter(|e| e["source_id"] == "src-usb")
            .count()
    );
    let evening = masf_ok(&[
        "timeline",
        case,
        "--work",
        work,
        "--json",
        "--from",
        "2025-02-18 21:40",
        "--to",
        "2025-02-18T22:05:00+08:00",
    ]);
    let evening: Value = serde_json::from_str(&evening).unwrap();
    let msgs: Vec<&str> = evening["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| !e["utc"].is_null())
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    // ROWID 4 (13:38:12Z) is before, ROWID 7 (14:05:00Z = --to) is out.
    assert_eq!(msgs, ["Message ROWID 6"]);
    assert!(
        !msgs.contains(&"Message ROWID 7"),
        "to is exclusive: {msgs:?}"
    );

    // CSV: the plaso/Timesketch header and one row per entry.
    let csv = masf_ok(&["timeline", case, "--work", work, "--csv"]);
    let mut rows = csv.lines();
    assert!(
        rows.next().unwrap().starts_with(
            "datetime,timestamp,timestamp_desc,message,source,source_id,phenomenon_id"
        )
    );
    assert_eq!(rows.count(), marks);

    // l2tcsv: plaso's header, one row per placed entry.
    let l2t = masf_ok(&["timeline", case, "--work", work, "--l2tcsv"]);
    let mut rows = l2t.lines();
    assert_eq!(
        rows.next().unwrap(),
        "date,time,timezone,MACB,source,sourcetype,type,user,host,short,desc,version,filename,inode,notes,format,extra"
    );
    assert!(l2t.contains("02/18/2025,14:05:00,UTC,"), "{l2t}");

    // The default table shows case-zone times and the raw values.
    let table = masf_ok(&["timeline", case, "--work", work]);
    assert!(table.starts_with("time (Asia/Hong_Kong)"), "{table}");
    assert!(table.contains("2025-02-18T22:05:00+08:00"));
    assert!(table.contains("761580300000000000 (apple_nanos)"));
    assert!(table.contains(&format!("{marks} entries")));

    // Wrong requests fail with a reason.
    let bad = masf(&["timeline", case, "--work", work, "--source", "src-nope"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown source \"src-nope\""));
    let bad = masf(&["timeline", case, "--work", work, "--from", "yesterday"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--from"));
    let bad = masf(&["timeline", case, "--work", work, "--json", "--csv"]);
    assert_eq!(bad.status.code(), Some(2));
}
