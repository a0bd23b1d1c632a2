//! `masf init` + `masf run`: intake registers every source with correct digests, idempotently,
//! without touching the evidence.

use std::path::Path;

use masf_testkit::corpus;

use crate::support::{bytes, fingerprint, masf, masf_ok, oracle};

/// A case folder with a split EWF set (real FTK Imager output), a raw file and a folder source.
fn make_case(dir: &Path) -> Vec<std::path::PathBuf> {
    let ev = dir.join("evidence");
    std::fs::create_dir_all(ev.join("shots/sub")).unwrap();
    for seg in ["e01rs-mimage.E01", "e01rs-mimage.E02"] {
        std::fs::copy(corpus::path(&format!("ewf/{seg}")), ev.join(seg)).unwrap();
    }
    std::fs::write(ev.join("blk0_sda.bin"), bytes(700_000, 7)).unwrap();
    std::fs::write(ev.join("shots/a.png"), bytes(1000, 8)).unwrap();
    std::fs::write(ev.join("shots/sub/b.png"), bytes(2000, 9)).unwrap();
    masf_ok(&[
        "init",
        dir.to_str().unwrap(),
        ev.join("e01rs-mimage.E01").to_str().unwrap(),
        ev.join("blk0_sda.bin").to_str().unwrap(),
        ev.join("shots").to_str().unwrap(),
    ]);
    vec![
        ev.join("e01rs-mimage.E01"),
        ev.join("e01rs-mimage.E02"),
        ev.join("blk0_sda.bin"),
        ev.join("shots/a.png"),
        ev.join("shots/sub/b.png"),
    ]
}

#[test]
fn intake_hashes_every_file_once_and_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let files = make_case(dir.path());
    let case = dir.path().join("case.yaml");
    let case = case.to_str().unwrap();
    let before: Vec<_> = files.iter().map(|f| fingerprint(f)).collect();

    let first: serde_json::Value =
        serde_json::from_str(&masf_ok(&["run", case, "--json"])).unwrap();
    assert_eq!(first["events_added"], 3);

    // Every file of every source, with the digests the system tools compute.
    let mut seen = Vec::new();
    for src in first["sources"].as_array().unwrap() {
        assert_eq!(src["newly_added"], true);
        for f in src["files"].as_array().unwrap() {
            let path = dir.path().join(f["path"].as_str().unwrap());
            assert_eq!(
                f["sha256"],
                oracle("sha256sum", &path),
                "{}",
                path.display()
            );
            assert_eq!(f["md5"], oracle("md5sum", &path), "{}", path.display());
            seen.push(path);
        }
    }
    let kinds: Vec<_> = first["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["files_kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["ewf_segments", "single", "folder"]);
    // The FTK split set's media verifies against its stored MD5 (the libewf oracle's value).
    let media = &first["sources"][0]["media"];
    assert_eq!(media["md5"], "5be32cdd1b96eac4d4a41d13234ee599");
    assert_eq!(media["md5_check"], "verified");
    assert_eq!(seen, files, "all segments and folder files, in order");

    // A second run adds nothing but its own run-lifecycle events (the audit of who ran what
    // when).
    let events_before = case_events(&masf_ok(&["events", case, "--jsonl"]));
    let second: serde_json::Value =
        serde_json::from_str(&masf_ok(&["run", case, "--json"])).unwrap();
    assert_eq!(second["events_added"], 0);
    assert_eq!(second["run"]["state"], "completed");
    assert_eq!(second["run"]["segment"], 2);
    assert_eq!(
        case_events(&masf_ok(&["events", case, "--jsonl"])),
        events_before
    );
    assert_eq!(events_before.len(), 3);

    // The evidence is untouched: same bytes, same modification time.
    let after: Vec<_> = files.iter().map(|f| fingerprint(f)).collect();
    assert!(before == after, "evidence changed during intake");

    // status reports every source as registered.
    let status: serde_json::Value =
        serde_json::from_str(&masf_ok(&["status", case, "--json"])).unwrap();
    assert!(
        status["sources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["registered"] == true)
    );
    // Every event of the log is counted (3 registrations, the triage findings, and two runs
    // each opened `active` and closed `completed`).
    let all = masf_ok(&["events", case, "--jsonl"]);
    assert_eq!(status["events"], all.lines().count());
    let run_states = all
        .lines()
        .filter(|l| l.contains("\"kind\":\"RunState\""))
        .count();
    assert_eq!(run_states, 4);
    assert_eq!(status["run"]["state"], "completed");
    assert_eq!(status["run"]["segments"], 2);
}

#[test]
fn editing_a_label_adds_one_amendment_and_the_original_registration_stays() {
    let dir = tempfile::tempdir().unwrap();
    make_case(dir.path());
    let case_path = dir.path().join("case.yaml");
    let case = case_path.to_str().unwrap();
    masf_ok(&["run", case]);
    let text = std::fs::read_to_string(&case_path).unwrap();
    std::fs::write(
        &case_path,
        text.replace("label: shots", "label: Payment screenshots"),
    )
    .unwrap();
    masf_ok(&["run", case]);
    masf_ok(&["run", case]);
    let events = masf_ok(&["events", case, "--jsonl"]);
    let kinds: Vec<String> = case_events(&events)
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        ["SourceAdded", "SourceAdded", "SourceAdded", "SourceAmended"]
    );
    let status: serde_json::Value =
        serde_json::from_str(&masf_ok(&["status", case, "--json"])).unwrap();
    assert_eq!(status["sources"][2]["label"], "Payment screenshots");
}

#[test]
fn evidence_that_changed_size_after_intake_is_reported_and_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let files = make_case(dir.path());
    let case = dir.path().join("case.yaml");
    let case = case.to_str().unwrap();
    masf_ok(&["run", case]);
    std::fs::write(&files[2], bytes(10, 1)).unwrap();
    let out = masf(&["run", case]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("blk0_sda.bin is 10 bytes now but was 700000 bytes at intake"),
        "{err}"
    );
}

#[test]
fn an_invalid_case_fails_with_a_message_naming_source_and_field() {
    let dir = tempfile::tempdir().unwrap();
    make_case(dir.path());
    let case_path = dir.path().join("case.yaml");
    let text = std::fs::read_to_string(&case_path).unwrap();
    std::fs::write(
        &case_path,
        text.replace("path: evidence/blk0_sda.bin", "path: evidence/blk0_sdb.bin"),
    )
    .unwrap();
    let out = masf(&["run", case_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("src-blk0-sda-bin") && err.contains("path") && err.contains("blk0_sdb.bin"),
        "{err}"
    );
}

#[test]
fn the_work_folder_can_be_put_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    make_case(dir.path());
    let work = tempfile::tempdir().unwrap();
    let case = dir.path().join("case.yaml");
    masf_ok(&[
        "run",
        case.to_str().unwrap(),
        "--work",
        work.path().to_str().unwrap(),
    ]);
    assert!(work.path().join("case.sqlite").is_file());
    assert!(!dir.path().join(".masf").exists());
}

#[test]
fn an_e01_with_a_corrupt_chunk_registers_but_the_run_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("evidence");
    std::fs::create_dir_all(&ev).unwrap();
    std::fs::copy(
        corpus::path("ewf/e01rs-bad_chunk.E01"),
        ev.join("bad_chunk.E01"),
    )
    .unwrap();
    masf_ok(&[
        "init",
        dir.path().to_str().unwrap(),
        ev.join("bad_chunk.E01").to_str().unwrap(),
    ]);
    let case = dir.path().join("case.yaml");
    let out = masf(&["run", case.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["events_added"], 1);
    let media = &report["sources"][0]["media"];
    assert_eq!(media["md5_check"], "mismatch");
    assert!(
        media["bad_chunks"][0]
            .as_str()
            .unwrap()
            .starts_with("chunk 0 "),
        "{media}"
    );
    assert!(
        report["problems"][0]
            .as_str()
            .unwrap()
            .contains("does not verify")
    );
}

/// The events of the case's sources (intake), leaving out run-lifecycle events.
fn case_events(jsonl: &str) -> Vec<serde_json::Value> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| {
            let kind = e["kind"].as_str().unwrap();
            kind.starts_with("Source")
        })
        .collect()
}
