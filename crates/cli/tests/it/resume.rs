//! Crash safety: `masf run` killed with SIGKILL at several moments, then run again, ends in the
//! same report as an uninterrupted run — same phenomena, hypotheses, same_as edges, actors and
//! timeline — with no duplicate phenomenon. Ids are compared through what they name: ids are
//! assigned in recording order, and sources are triaged in parallel, so `ph-`/`ent-`/`hyp-`/
//! `inv-` numbers may differ between any two runs (documented in the README).

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::{normalised, repo, run_case};

#[test]
fn a_run_killed_at_any_moment_then_run_again_gives_the_same_report() {
    let case = repo().join("case.yaml");
    let case = case.to_str().unwrap();
    let base = tempfile::tempdir().unwrap();
    run_case(case, &base.path().join("work"), &base.path().join("out"));
    let expected = normalised(&base.path().join("out/report.json"));
    assert!(!expected["phenomena"].as_array().unwrap().is_empty());

    for delay_ms in [150u64, 500, 1200] {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let out = dir.path().join("out");
        let mut child = Command::new(env!("CARGO_BIN_EXE_masf"))
            .args(["run", case, "--work", work.to_str().unwrap(), "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        run_case(case, &work, &out);
        let got = normalised(&out.join("report.json"));
        for part in [
            "phenomena",
            "hypotheses",
            "same_as",
            "actors",
            "timeline",
            "not_read",
        ] {
            assert_eq!(
                got[part], expected[part],
                "{part} differ after a kill at {delay_ms} ms"
            );
        }
    }
}
