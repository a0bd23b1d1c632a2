//! `read_bencode` on files libtorrent itself wrote (`tests/fixtures/torrents/torrents.py`): the
//! info hash the tool computes from the stored `info` bytes is libtorrent's; the name, files,
//! trackers and creation date are in the JSON; `pieces` is summarised; the resume data's values
//! are read; a torrent cut in half and a text file are refused with the byte offset.

use std::process::Command;

use masf_testkit::corpus;
use masf_tools::{Catalog, SourceCtx};
use serde_json::{Value, json};

use crate::support::run;

#[test]
fn torrents_and_resume_data_written_by_libtorrent() {
    let tmp = tempfile::tempdir().unwrap();
    let oracle_file = tmp.path().join("oracle.json");
    let out = Command::new(corpus::py_oracle("python3", "libtorrent"))
        .arg(corpus::repo_root().join("tests/fixtures/torrents/torrents.py"))
        .arg(tmp.path())
        .arg(&oracle_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o: Value = serde_json::from_slice(&std::fs::read(&oracle_file).unwrap()).unwrap();

    let ctx = SourceCtx::open("a", &tmp.path().join("a")).unwrap();
    let torrent = &o["a"][0];
    let got = run(&ctx, "read_bencode", json!({"path": torrent["path"]}));
    let hash = torrent["info_hash"].as_str().unwrap();
    let head = got.text.lines().next().unwrap();
    assert!(head.ends_with(&format!("; info hash {hash}")), "{head}");
    assert_eq!(got.structured.as_ref().unwrap()["info_hash"], hash);
    let doc: Value = serde_json::from_str(got.text.split_once('\n').unwrap().1).unwrap();
    assert_eq!(doc["info"]["name"], torrent["name"]);
    assert_eq!(doc["comment"], torrent["comment"]);
    assert_eq!(doc["created by"], torrent["creator"]);
    assert_eq!(doc["creation date"], torrent["created"]);
    assert_eq!(doc["announce"], torrent["trackers"][0]);
    let files: Vec<(String, u64)> = doc["info"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let parts: Vec<&str> = f["path"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            (
                format!(
                    "{}/{}",
                    doc["info"]["name"].as_str().unwrap(),
                    parts.join("/")
                ),
                f["length"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64)> = torrent["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f[0].as_str().unwrap().to_string(), f[1].as_u64().unwrap()))
        .collect();
    assert_eq!(files, want);
    let pieces = doc["info"]["pieces"].as_str().unwrap();
    // 20 bytes a piece: three pieces are printed whole, more are summarised
    assert_eq!(pieces.len(), 3 + 2 * 60, "{pieces}");

    let resume = &o["a"][1];
    let got = run(&ctx, "read_bencode", json!({"path": resume["path"]}));
    assert_eq!(got.structured.as_ref().unwrap()["info_hash"], hash);
    let doc: Value = serde_json::from_str(got.text.split_once('\n').unwrap().1).unwrap();
    assert_eq!(doc["save_path"], resume["save_path"]);
    assert_eq!(doc["added_time"], resume["added"]);
    assert_eq!(doc["completed_time"], resume["completed"]);
    assert_eq!(doc["total_uploaded"], resume["uploaded"]);
    // the raw 20-byte info hash libtorrent keeps is shown as hex
    assert_eq!(doc["info-hash"], format!("x'{hash}'"));

    let catalog = Catalog::standard();
    let tool = catalog.get("read_bencode").unwrap();
    let e = tool
        .run(
            &ctx,
            &json!({"path": "/data/data/com.example.notes/files/notes.resume"}),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("not bencode at byte 0"), "{e}");
    let ctx = SourceCtx::open("b", &tmp.path().join("b")).unwrap();
    let single = &o["b"][0];
    let got = run(&ctx, "read_bencode", json!({"path": single["path"]}));
    assert_eq!(
        got.structured.as_ref().unwrap()["info_hash"],
        single["info_hash"]
    );
    let cut = single["path"]
        .as_str()
        .unwrap()
        .replace("ubuntu.torrent", "cut.torrent");
    let e = tool
        .run(&ctx, &json!({"path": cut}))
        .unwrap_err()
        .to_string();
    assert!(e.contains("not bencode at byte"), "{e}");
}
