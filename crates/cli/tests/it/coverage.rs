//! `masf coverage` and the report's coverage tables (issue 17, part 4): on the demo iPhone's
//! real bytes unpacked into a folder with its address book truncated, each artefact of the iOS
//! catalogue says what came of it — parsed with its phenomena, could not parse with the
//! reason, not present — and a triage halted by its budget says "not examined", never "not
//! present".

use std::path::Path;

use serde_json::Value;

use crate::support::{masf, masf_ok, repo};

/// A one-source case over the folder `tree` (the demo iPhone unpacked).
fn case_over(dir: &Path, tree: &Path) -> String {
    let case = dir.join("case.yaml");
    std::fs::write(
        &case,
        format!(
            "case:\n  id: coverage\n  title: coverage\n  examiner: T\n  timezone: UTC\n  region: HK\n\
             sources:\n  - id: src-phone\n    label: iPhone folder\n    path: {}\n    timezone: UTC\n",
            tree.display()
        ),
    )
    .unwrap();
    case.to_str().unwrap().to_string()
}

fn item<'a>(table: &'a Value, name: &str) -> &'a Value {
    table["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {table}"))
}

#[test]
fn coverage_says_what_came_of_each_artefact() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("iphone");
    let st = std::process::Command::new("unzip")
        .args(["-q", "-d"])
        .arg(&tree)
        .arg(repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"))
        .status()
        .expect("unzip");
    assert!(st.success());
    // A hostile copy: the address book cut after its first page.
    let book = tree.join("private/var/mobile/Library/AddressBook/AddressBook.sqlitedb");
    let bytes = std::fs::read(&book).unwrap();
    std::fs::write(&book, &bytes[..4096]).unwrap();
    let case = case_over(dir.path(), &tree);
    let (work, out) = (dir.path().join("work"), dir.path().join("out"));
    let (work_s, out_s) = (work.to_str().unwrap(), out.to_str().unwrap());
    masf_ok(&["run", &case, "--work", work_s, "--out", out_s]);

    let tables: Value =
        serde_json::from_str(&masf_ok(&["coverage", &case, "--work", work_s, "--json"])).unwrap();
    let tables = tables.as_array().unwrap();
    assert_eq!(tables.len(), 1, "{tables:?}");
    let ios = &tables[0];
    assert_eq!(ios["source_id"], "src-phone");
    assert_eq!(ios["plugin"], "ios");
    assert_eq!(ios["searched"], true);

    let sms = item(ios, "sms.db");
    assert_eq!(sms["status"], "parsed");
    assert!(sms["records"].as_u64().unwrap() >= 10, "{sms}");
    let book = item(ios, "AddressBook.sqlitedb");
    assert_eq!(book["status"], "could_not_parse", "{book}");
    let why = book["problems"][0].as_str().unwrap();
    assert!(why.contains("AddressBook.sqlitedb"), "{why}");
    assert_eq!(item(ios, "CallHistory.storedata")["status"], "not_found");
    assert_eq!(item(ios, "NoteStore.sqlite")["status"], "not_found");
    assert_eq!(item(ios, "CommCenter plists")["status"], "parsed");

    // The report carries the same tables, in every rendering.
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["sources"][0]["coverage"][0]["items"], ios["items"]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Artefact coverage"), "{md}");
    assert!(
        md.lines().any(|l| l.starts_with("| AddressBook.sqlitedb |")
            && l.contains("| could not parse |")),
        "{md}"
    );
    assert!(md.contains("| CallHistory.storedata |"));
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<h2>Artefact coverage</h2>"));
    // Findings: one section per artefact type with its count.
    assert!(md.lines().any(|l| l.starts_with("#### messages (")), "{md}");

    // The text view, and a source that is not in the case.
    let text = masf_ok(&["coverage", &case, "--work", work_s]);
    assert!(text.contains("src-phone — ios (triage finished"), "{text}");
    assert!(text.contains("could not parse"), "{text}");
    let bad = masf(&["coverage", &case, "--work", work_s, "--source", "nope"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no source \"nope\""));
}

#[test]
fn a_halted_triage_leaves_what_it_did_not_read_not_examined() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("iphone");
    let st = std::process::Command::new("unzip")
        .args(["-q", "-d"])
        .arg(&tree)
        .arg(repo().join("tests/fixtures/demo/evidence/iphone_ffs.zip"))
        .status()
        .expect("unzip");
    assert!(st.success());
    let case = case_over(dir.path(), &tree);
    let config = dir.path().join("config.yaml");
    std::fs::write(&config, "budgets:\n  tool_calls: 6\n").unwrap();
    let work = dir.path().join("work");
    let work_s = work.to_str().unwrap();
    let args = ["--work", work_s, "--config", config.to_str().unwrap()];
    let halted = masf(&[&["run", case.as_str()][..], &args[..]].concat());
    assert_eq!(halted.status.code(), Some(3), "{halted:?}");
    let tables: Value = serde_json::from_str(&masf_ok(
        &[&["coverage", case.as_str(), "--json"][..], &args[..]].concat(),
    ))
    .unwrap();
    let ios = &tables[0];
    assert_eq!(ios["searched"], false, "{ios}");
    let statuses: Vec<&str> = ios["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert!(!statuses.contains(&"not_found"), "{statuses:?}");
    assert!(statuses.contains(&"not_examined"), "{statuses:?}");
}
