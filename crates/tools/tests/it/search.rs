//! `search_text` on the demo evidence and on files made with real tools: WAL-only rows are
//! found in the `-wal`, UTF-16LE text is found, hits across chunk boundaries are reported once.

use std::process::Command;

use masf_tools::SourceCtx;
use serde_json::json;

use crate::support::{iphone, run, usb};

#[test]
fn finds_a_wal_only_message_and_the_usb_notes_address() {
    let out = run(
        &iphone(),
        "search_text",
        json!({"patterns": ["0x3b9cb90d2976083178b8cb402112d0381c4957ef01a4a81859902b7a4add0b90"]}),
    );
    let hits: Vec<&str> = out.text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!hits.is_empty(), "{}", out.text);
    assert!(
        hits.iter()
            .all(|l| l.starts_with("/private/var/mobile/Library/SMS/sms.db-wal\t")),
        "only the WAL holds message 7: {}",
        out.text
    );
    assert!(hits[0].contains("\tutf8\t"), "{}", hits[0]);

    let out = run(
        &usb(),
        "search_text",
        json!({"patterns": ["YL.LEUNG@EXAMPLE.COM"], "ignore_case": true}),
    );
    assert!(
        out.text.lines().any(|l| l.starts_with("/notes.txt\t")),
        "{}",
        out.text
    );
    let cased = run(
        &usb(),
        "search_text",
        json!({"patterns": ["YL.LEUNG@EXAMPLE.COM"]}),
    );
    assert!(cased.text.starts_with("# 0 hit(s)"), "{}", cased.text);
}

#[test]
fn utf16_text_and_chunk_boundaries() {
    let dir = tempfile::tempdir().unwrap();
    // A UTF-16LE file written by iconv (as Windows tools write them).
    let utf8 = dir.path().join("note-utf8.txt");
    std::fs::write(&utf8, "Wallet: TJRabPrwbZy45sbavfcjinPJC18kjpRTv8 end\n").unwrap();
    let converted = Command::new("iconv")
        .args(["-f", "UTF-8", "-t", "UTF-16LE"])
        .arg(&utf8)
        .output()
        .unwrap();
    assert!(converted.status.success());
    std::fs::write(dir.path().join("note-utf16.txt"), &converted.stdout).unwrap();
    std::fs::remove_file(&utf8).unwrap();
    // A 9 MiB file with the pattern straddling the first 4 MiB chunk boundary and at the end.
    let mut big = vec![b'.'; 9 << 20];
    let pat = b"needle-1234567";
    let at = (4 << 20) - 5;
    big[at..at + pat.len()].copy_from_slice(pat);
    let end = big.len() - pat.len();
    big[end..].copy_from_slice(pat);
    std::fs::write(dir.path().join("big.bin"), &big).unwrap();

    let ctx = SourceCtx::open("src-folder", dir.path()).unwrap();
    let out = run(
        &ctx,
        "search_text",
        json!({"patterns": ["TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "needle-1234567"]}),
    );
    let hits: Vec<&str> = out.text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        hits.iter()
            .map(|l| l.split('\t').take(3).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>(),
        [
            format!("/big.bin {at} utf8"),
            format!("/big.bin {end} utf8"),
            "/note-utf16.txt 16 utf16le".to_string(),
        ],
        "{}",
        out.text
    );
    assert!(
        hits[2].ends_with("Wallet: TJRabPrwbZy45sbavfcjinPJC18kjpRTv8 end."),
        "{}",
        hits[2]
    );

    // Files over max_file_size are listed, not searched; bad patterns are refused.
    let out = run(
        &ctx,
        "search_text",
        json!({"patterns": ["needle-1234567"], "max_file_size": 1024}),
    );
    assert!(
        out.text
            .contains("# skipped (larger than max_file_size): /big.bin"),
        "{}",
        out.text
    );
    let catalog = masf_tools::Catalog::standard();
    let tool = catalog.get("search_text").unwrap();
    assert!(tool.run(&ctx, &json!({"patterns": ["ab"]})).is_err());
}
