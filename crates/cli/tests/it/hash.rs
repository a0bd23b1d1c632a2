//! `masf hash` agrees with sha256sum and md5sum.

use crate::support::{bytes, masf, masf_ok, oracle};

#[test]
fn hashes_equal_sha256sum_and_md5sum() {
    let dir = tempfile::tempdir().unwrap();
    // Sizes around the 128 KiB read size and an empty file.
    let sizes = [
        0usize,
        1,
        131_071,
        131_072,
        131_073,
        5 * 131_072 + 17,
        3_000_000,
    ];
    let mut files = Vec::new();
    for (i, size) in sizes.iter().enumerate() {
        let p = dir.path().join(format!("f{i}.bin"));
        std::fs::write(&p, bytes(*size, i as u64 + 1)).unwrap();
        files.push(p);
    }
    let args: Vec<&str> = std::iter::once("hash")
        .chain(std::iter::once("--jsonl"))
        .chain(files.iter().map(|p| p.to_str().unwrap()))
        .collect();
    let out = masf_ok(&args);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), files.len());
    for (line, file) in lines.iter().zip(&files) {
        assert_eq!(
            line["sha256"],
            oracle("sha256sum", file),
            "{}",
            file.display()
        );
        assert_eq!(line["md5"], oracle("md5sum", file), "{}", file.display());
        assert_eq!(line["size"], std::fs::metadata(file).unwrap().len());
    }
}

#[test]
fn a_missing_file_fails_with_exit_1_naming_it() {
    let out = masf(&["hash", "/nonexistent/evidence.E01"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/evidence.E01"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(masf(&["hash"]).status.code(), Some(2));
    assert_eq!(masf(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(masf(&["--help"]).status.code(), Some(0));
}
