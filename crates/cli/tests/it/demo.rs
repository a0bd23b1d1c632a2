//! The demo case at the root of the repository runs: every source registers with the digests
//! the system tools compute, all segments included, twice without new events, evidence untouched.

use crate::support::{fingerprint, masf_ok, oracle, repo};

#[test]
fn the_demo_case_intake_matches_the_oracles_and_is_idempotent() {
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    let work = work.path().to_str().unwrap();
    let demo = repo().join("tests/fixtures/demo/evidence");
    let evidence: Vec<_> = std::fs::read_to_string(repo().join("tests/fixtures/demo/SHA256SUMS"))
        .unwrap()
        .lines()
        .map(|l| {
            repo()
                .join("tests/fixtures/demo")
                .join(l.split_once("  ").unwrap().1)
        })
        .collect();
    let before: Vec<_> = evidence.iter().map(|f| fingerprint(f)).collect();

    let run: serde_json::Value =
        serde_json::from_str(&masf_ok(&["run", case, "--work", work, "--json"])).unwrap();
    assert_eq!(run["case_id"], "demo-2025-individual");
    assert_eq!(run["events_added"], 4);
    let sources = run["sources"].as_array().unwrap();
    let ids: Vec<_> = sources
        .iter()
        .map(|s| s["source_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["src-usb", "src-android", "src-iphone", "src-screens"]);

    let usb = &sources[0];
    assert_eq!(usb["files_kind"], "ewf_segments");
    let usb_files: Vec<_> = usb["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        usb_files,
        [
            "tests/fixtures/demo/evidence/usb.E01",
            "tests/fixtures/demo/evidence/usb.E02"
        ]
    );
    assert_eq!(
        sources[3]["files"].as_array().unwrap().len(),
        5,
        "five screenshots"
    );

    let mut hashed = 0;
    for s in sources {
        for f in s["files"].as_array().unwrap() {
            let path = repo().join(f["path"].as_str().unwrap());
            assert_eq!(
                f["sha256"],
                oracle("sha256sum", &path),
                "{}",
                path.display()
            );
            assert_eq!(f["md5"], oracle("md5sum", &path), "{}", path.display());
            hashed += 1;
        }
    }
    assert_eq!(
        hashed,
        evidence.len(),
        "every evidence file of the demo is hashed"
    );

    let again: serde_json::Value =
        serde_json::from_str(&masf_ok(&["run", case, "--work", work, "--json"])).unwrap();
    assert_eq!(again["events_added"], 0);

    let after: Vec<_> = evidence.iter().map(|f| fingerprint(f)).collect();
    assert!(before == after, "demo evidence changed during intake");
    assert!(demo.is_dir());
}

#[test]
fn the_shipped_config_yaml_is_valid() {
    // `status` loads config.yaml beside the case file; a bad key there would fail the command.
    let work = tempfile::tempdir().unwrap();
    let case = repo().join("case.yaml");
    masf_ok(&[
        "status",
        case.to_str().unwrap(),
        "--work",
        work.path().to_str().unwrap(),
    ]);
}
