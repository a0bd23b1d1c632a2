//! One writer per case (issue 24): two `masf run` on one work folder used to corrupt the case
//! for good (both exit 1 with an idempotency conflict, one phenomenon id naming two records,
//! every later run failing, `status`, `verify` and `report` exiting 0). Now a run holds the
//! case's lease: a second run is refused with exit 4 naming the holder, or waits with `--wait`;
//! a holder killed with SIGKILL leaves no lock behind; the examiner's decisions go on during a
//! run.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

use crate::support::{demo_subset, masf, masf_ok, normalised, run_case};

/// Exit status of a run refused because another process holds the case (README).
const EXIT_BUSY: i32 = 4;

fn spawn_run(case: &str, work: &Path, out: &Path, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_masf"))
        .args(["run", case, "--work", work.to_str().unwrap(), "--out"])
        .arg(out)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("masf runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every event of the case's log.
fn events(case: &str, work: &Path) -> Vec<Value> {
    masf_ok(&["events", case, "--work", work.to_str().unwrap(), "--jsonl"])
        .lines()
        .map(|l| serde_json::from_str(l).expect("an event per line"))
        .collect()
}

/// The run leases recorded in the log: the pid of each, in order.
fn lease_pids(case: &str, work: &Path) -> Vec<u64> {
    events(case, work)
        .iter()
        .filter(|e| e["kind"] == "RunLeased")
        .map(|e| e["payload"]["pid"].as_u64().expect("a lease names its pid"))
        .collect()
}

/// `masf status` and `masf verify` find nothing wrong with the store.
pub(crate) fn assert_consistent(case: &str, work: &Path, what: &str) {
    let work = work.to_str().unwrap();
    for command in ["status", "verify"] {
        let out = masf(&[command, case, "--work", work]);
        assert!(
            out.status.success(),
            "{what}: masf {command} found a problem ({}):\n{}",
            out.status,
            text(&out)
        );
    }
}

#[test]
fn two_runs_started_together_ten_times_one_runs_and_the_other_refuses_or_waits() {
    let base = tempfile::tempdir().unwrap();
    // One source: the race is over the case, whatever its sources are.
    let case = demo_subset(base.path(), &["src-iphone"]);
    run_case(&case, &base.path().join("work"), &base.path().join("out"));
    let expected = normalised(&base.path().join("out/report.json"));
    assert!(!expected["phenomena"].as_array().unwrap().is_empty());
    assert!(!expected["hypotheses"].as_array().unwrap().is_empty());

    for attempt in 0..10 {
        // Every other attempt both runs are told to wait for the case instead of giving up.
        let wait = attempt % 2 == 1;
        let extra: &[&str] = if wait { &["--wait"] } else { &[] };
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let outs = [dir.path().join("out-a"), dir.path().join("out-b")];
        let children = [
            spawn_run(&case, &work, &outs[0], extra),
            spawn_run(&case, &work, &outs[1], extra),
        ];
        let pids = [children[0].id(), children[1].id()];
        let started = std::time::Instant::now();
        let [a, b] = children.map(|c| c.wait_with_output().expect("masf ends"));
        let took = started.elapsed();
        let outputs = [a, b];
        let codes = outputs.each_ref().map(|o| o.status.code());
        let what = format!("attempt {attempt} (wait: {wait}), exits {codes:?}");
        // For the record (`--nocapture`), not asserted.
        eprintln!("{what}, both ended after {:.1} s", took.as_secs_f64());
        if wait {
            for o in &outputs {
                assert!(o.status.success(), "{what}:\n{}", text(o));
            }
        } else {
            assert!(
                codes.contains(&Some(0)),
                "{what}: no run finished:\n{}\n{}",
                text(&outputs[0]),
                text(&outputs[1])
            );
            for (i, o) in outputs.iter().enumerate() {
                if o.status.code() == Some(EXIT_BUSY) {
                    let holder = format!("is being run by pid {} on ", pids[1 - i]);
                    let err = String::from_utf8_lossy(&o.stderr);
                    assert!(
                        err.contains("case demo-2025-individual ") && err.contains(&holder),
                        "{what}: the refusal does not name the holder ({holder}):\n{err}"
                    );
                } else {
                    assert!(o.status.success(), "{what}:\n{}", text(o));
                }
            }
        }
        // Who ran is in the log: one lease per run that ran, naming its process.
        let ran: Vec<u64> = (0..2)
            .filter(|&i| outputs[i].status.success())
            .map(|i| u64::from(pids[i]))
            .collect();
        let mut leased = lease_pids(&case, &work);
        leased.sort_unstable();
        let mut ran_sorted = ran.clone();
        ran_sorted.sort_unstable();
        assert_eq!(leased, ran_sorted, "{what}: the leases recorded");

        for (i, out) in outs.iter().enumerate() {
            if outputs[i].status.success() {
                let got = normalised(&out.join("report.json"));
                assert_eq!(
                    got, expected,
                    "{what}: run {i}'s report differs from a single run's"
                );
            }
        }
        assert_consistent(&case, &work, &what);
    }
}

/// A pipe whose buffer holds one page: a `masf run --events jsonl` writing into it, and read no
/// further, blocks at its next line — still holding the case — until the test reads on. No
/// timing is involved: the run cannot end before its stream is read.
fn small_pipe() -> (std::fs::File, Stdio) {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    // SAFETY: F_SETPIPE_SZ on a pipe descriptor we own.
    let size = unsafe { libc::fcntl(fds[0], libc::F_SETPIPE_SZ, 4096) };
    assert!(size >= 4096, "F_SETPIPE_SZ failed");
    (read, Stdio::from(write))
}

/// A `masf run --events jsonl` that holds the case until its stream is read: returns the child
/// and its stream, after the first line — the run's lease, naming the child.
pub(crate) fn holding_run(
    case: &str,
    work: &Path,
    out: &Path,
) -> (Child, std::io::BufReader<std::fs::File>) {
    use std::io::BufRead;
    let (read, write) = small_pipe();
    let child = Command::new(env!("CARGO_BIN_EXE_masf"))
        .args(["run", case, "--work", work.to_str().unwrap(), "--out"])
        .arg(out)
        .args(["--events", "jsonl"])
        .stdin(Stdio::null())
        .stdout(write)
        .stderr(Stdio::null())
        .spawn()
        .expect("masf runs");
    let mut stream = std::io::BufReader::new(read);
    let mut first = String::new();
    stream
        .read_line(&mut first)
        .expect("the stream's first line");
    let first: Value = serde_json::from_str(&first).expect("a JSON line");
    assert_eq!(first["kind"], "RunLeased", "{first}");
    assert_eq!(first["payload"]["pid"], u64::from(child.id()), "{first}");
    (child, stream)
}

pub(crate) fn refused_by(case: &str, work: &Path, holder: u32) {
    let out = masf(&["run", case, "--work", work.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(EXIT_BUSY), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    let expected = format!("case demo-2025-individual is being run by pid {holder} on ");
    assert!(
        err.contains(&expected) && err.contains(" since 20"),
        "expected {expected:?}…:\n{err}"
    );
}

#[test]
fn a_held_case_refuses_a_run_a_waiting_run_follows_and_kill_9_frees_it() {
    use std::io::BufRead;
    let base = tempfile::tempdir().unwrap();
    // Two sources whose people link: the examiner has a live edge to decide on.
    let case = demo_subset(base.path(), &["src-usb", "src-iphone"]);
    run_case(&case, &base.path().join("work"), &base.path().join("out"));
    let expected = normalised(&base.path().join("out/report.json"));

    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    let (mut holder, stream) = holding_run(&case, &work, &dir.path().join("out-held"));
    let pid = holder.id();
    refused_by(&case, &work, pid);
    // A refused resume grants nothing.
    let out = masf(&[
        "resume",
        &case,
        "--work",
        work.to_str().unwrap(),
        "--grant",
        "tool_calls=7",
    ]);
    assert_eq!(out.status.code(), Some(EXIT_BUSY), "{}", text(&out));

    // A run told to wait says whom it waits for, then waits.
    let mut waiting = Command::new(env!("CARGO_BIN_EXE_masf"))
        .args([
            "run",
            &case,
            "--work",
            work.to_str().unwrap(),
            "--wait",
            "--out",
        ])
        .arg(dir.path().join("out"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("masf runs");
    let mut err = std::io::BufReader::new(waiting.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(
        line.contains(&format!("is being run by pid {pid} on ")) && line.contains("waiting"),
        "{line}"
    );

    // The holder dies without letting go: the kernel releases its lock.
    holder.kill().unwrap(); // SIGKILL
    holder.wait().unwrap();
    drop(stream);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = waiting.wait().unwrap();
    assert!(
        status.success(),
        "the waiting run failed ({status}):\n{rest}"
    );
    assert_eq!(normalised(&dir.path().join("out/report.json")), expected);
    let leases = lease_pids(&case, &work);
    assert_eq!(leases, [u64::from(pid), u64::from(waiting.id())]);
    assert!(
        !events(&case, &work)
            .iter()
            .any(|e| e["kind"] == "BudgetGranted"),
        "the refused resume recorded a grant"
    );
    assert_consistent(&case, &work, "after kill -9 and a waiting run");
}

#[test]
fn the_examiner_decides_while_a_run_holds_the_case() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let case = demo_subset(dir.path(), &["src-usb", "src-iphone"]);
    let work = dir.path().join("work");
    let w = work.to_str().unwrap();
    masf_ok(&[
        "run",
        &case,
        "--work",
        w,
        "--out",
        dir.path().join("out-1").to_str().unwrap(),
    ]);
    let links: Value = serde_json::from_str(&masf_ok(&["links", &case, "--work", w, "--json"]))
        .expect("links JSON");
    let live: Vec<String> = links
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["state"] == "live")
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect();
    assert!(live.len() >= 2, "{links}");

    // A second run of the case holds it while the examiner decides.
    let out = dir.path().join("out-2");
    let (holder, mut stream) = holding_run(&case, &work, &out);
    refused_by(&case, &work, holder.id());
    masf_ok(&[
        "retract",
        &case,
        "--work",
        w,
        &live[0],
        "--reason",
        "decided mid-run",
    ]);
    masf_ok(&["pause", &case, "--work", w, "--reason", "not now"]);
    refused_by(&case, &work, holder.id());

    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    let ended = holder.wait_with_output().unwrap();
    // The run honoured the pause if it met a tool call after it, else completed.
    assert!(
        matches!(ended.status.code(), Some(0 | 3)),
        "the run failed ({})",
        ended.status
    );
    let links: Value = serde_json::from_str(&masf_ok(&["links", &case, "--work", w, "--json"]))
        .expect("links JSON");
    let edge = links
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == live[0].as_str())
        .expect("the edge");
    assert_eq!(edge["state"], "retracted", "{edge}");
    assert_eq!(edge["decisions"][0]["reason"], "decided mid-run");
    // The report the run wrote is one snapshot of the case: it holds the decision made while the
    // run went on exactly when the log head it prints comes after the decision. Which of the two
    // happened depends on the machine's speed; both must be consistent.
    let events = masf_ok(&["events", &case, "--work", w, "--jsonl"]);
    // The pause is recorded as the examiner case.yaml names, not as the account running `masf`.
    let pause = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["kind"] == "RunControl")
        .expect("the pause request");
    assert_eq!(pause["payload"]["by"], "J. Doe", "{pause}");
    let decided_at = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["kind"] == "SameAsRetracted" && e["payload"].to_string().contains(&live[0]))
        .and_then(|e| e["seq"].as_i64())
        .expect("the retraction event");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let head = report["generated"]["log_chain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["table"] == "events")
        .and_then(|h| h["seq"].as_i64())
        .expect("the events head in the report");
    let in_report = report["same_as"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == live[0].as_str())
        .expect("the edge in the report");
    if head >= decided_at {
        assert_eq!(in_report["state"], "retracted", "head {head}: {in_report}");
        assert_eq!(in_report["decisions"][0]["reason"], "decided mid-run");
    } else {
        assert_eq!(
            in_report["state"], "live",
            "head {head} < {decided_at}: {in_report}"
        );
        assert!(
            in_report["decisions"].as_array().is_none_or(Vec::is_empty),
            "{in_report}"
        );
    }
    assert_consistent(&case, &work, "after decisions during a run");
}
