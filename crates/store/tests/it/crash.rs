//! Crash safety: a writer process killed with SIGKILL mid-batch leaves only whole batches.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::support::open;

const PER_BATCH: u64 = 500;
/// 500 events of ~8 KB make a 4 MB batch, twice SQLite's default page cache: the open
/// transaction spills uncommitted pages into the WAL before it commits, so a kill often leaves a
/// partial batch on disk that recovery must ignore.
const PAD_BYTES: usize = 8_000;

/// Where in the next batch to kill the writer, as a fraction of the time one batch takes (measured
/// in each round between two commits), so the kills spread over building, spilling and committing.
const KILL_AT: &[f64] = &[0.0, 0.2, 0.45, 0.6, 0.75, 0.9];

#[test]
fn a_killed_writer_leaves_only_whole_batches() {
    let dir = tempfile::tempdir().unwrap();
    let mut reported: Option<u64> = None;
    for (round, &fraction) in KILL_AT.iter().enumerate() {
        let mut child = Command::new(env!("CARGO_BIN_EXE_masf-store-writer"))
            .arg(dir.path())
            .arg(PER_BATCH.to_string())
            .arg(PAD_BYTES.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut note = |line: String| {
            let batch: u64 = line.strip_prefix("committed ").unwrap().parse().unwrap();
            reported = reported.max(Some(batch));
        };
        note(lines.next().expect("writer stopped early").unwrap());
        let started = Instant::now();
        note(lines.next().expect("writer stopped early").unwrap());
        std::thread::sleep(started.elapsed().mul_f64(fraction));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        // Commits reported before the kill but not read yet count too.
        for line in lines {
            note(line.unwrap());
        }

        let batches = check_whole_batches(dir.path());
        let reported = reported.unwrap();
        assert!(
            batches > reported,
            "round {round}: batch {reported} was reported committed, the store has {batches} batches"
        );
    }
}

/// Asserts the store opens and holds batches `0..n`, each complete and contiguous in seq;
/// returns `n`.
fn check_whole_batches(dir: &Path) -> u64 {
    let store = open(dir);
    let mut batches: BTreeMap<u64, Vec<(i64, u64)>> = BTreeMap::new();
    store
        .fold((), |(), e| {
            let batch = e.payload["batch"].as_u64().unwrap();
            let index = e.payload["index"].as_u64().unwrap();
            batches.entry(batch).or_default().push((e.seq, index));
        })
        .unwrap();
    let count = batches.len() as u64;
    assert_eq!(
        batches.keys().copied().collect::<Vec<_>>(),
        (0..count).collect::<Vec<_>>()
    );
    for (batch, events) in &batches {
        let first = events[0].0;
        let expected: Vec<_> = (0..PER_BATCH).map(|i| (first + i as i64, i)).collect();
        assert_eq!(events, &expected, "batch {batch} is partial or interleaved");
    }
    assert_eq!(store.last_seq().unwrap(), (count * PER_BATCH) as i64);
    count
}
