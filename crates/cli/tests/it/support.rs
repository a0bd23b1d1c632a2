//! Running the real `masf` binary and the system tools used as oracles.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `masf` with `args`.
pub fn masf(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_masf"))
        .args(args)
        .output()
        .expect("masf runs")
}

/// Runs `masf` and asserts success; returns stdout.
pub fn masf_ok(args: &[&str]) -> String {
    let out = masf(args);
    assert!(
        out.status.success(),
        "masf {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// The first field of `tool FILE` (sha256sum, md5sum).
pub fn oracle(tool: &str, file: &Path) -> String {
    let out = Command::new(tool)
        .arg(file)
        .output()
        .expect("oracle tool runs");
    assert!(out.status.success(), "{tool} failed");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .expect("digest")
        .to_string()
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Deterministic pseudo-random bytes (xorshift), so tests need no RNG crate.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Content and modification time of a file, to prove evidence is untouched.
pub fn fingerprint(path: &Path) -> (Vec<u8>, std::time::SystemTime) {
    let content = std::fs::read(path).expect("read evidence");
    let mtime = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .expect("mtime");
    (content, mtime)
}
