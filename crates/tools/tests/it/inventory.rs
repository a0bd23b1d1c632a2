//! `inventory` on a generated folder: pages that together list every file exactly once, in the
//! walk's order, with the SHA-256 `sha256sum` would give, each page the same bytes when called
//! again; and on the demo USB stick (deleted entries, FAT times).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use masf_tools::SourceCtx;
use masf_tools::inventory::{CONTINUES, END, PAGE_FILES, TOTAL_PREFIX};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::support::{run, usb};

/// `files` files spread over nested folders (some empty, some holding only folders), with
/// their expected SHA-256 by tree path.
fn folder(root: &Path, files: usize) -> BTreeMap<String, String> {
    let mut want = BTreeMap::new();
    std::fs::create_dir_all(root.join("empty/nested")).unwrap();
    for i in 0..files {
        let dir = match i % 4 {
            0 => format!("a/{}", i % 7),
            1 => format!("b/deep/{}/x", i % 3),
            2 => String::new(),
            _ => format!("c{}", i % 11),
        };
        let name = format!("f{i:06}.txt");
        let rel = if dir.is_empty() {
            name
        } else {
            format!("{dir}/{name}")
        };
        let body = format!("file {i}\n").repeat(i % 5);
        std::fs::create_dir_all(root.join(&rel).parent().unwrap()).unwrap();
        std::fs::write(root.join(&rel), &body).unwrap();
        want.insert(
            format!("/{rel}"),
            hex::encode(Sha256::digest(body.as_bytes())),
        );
    }
    want
}

/// Every page, following the `continues after` lines: (rows as (path, sha256), page texts).
fn pages(src: &SourceCtx) -> (Vec<(String, String)>, Vec<String>) {
    let mut rows = Vec::new();
    let mut texts = Vec::new();
    let mut args = json!({});
    loop {
        let out = run(src, "inventory", args.clone());
        // The same call gives the same bytes.
        assert_eq!(run(src, "inventory", args.clone()).text, out.text);
        let last = out.text.lines().last().unwrap().to_string();
        for line in out.text.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 6, "{line}");
            if cols[0] != "size" {
                rows.push((cols[5].to_string(), cols[1].to_string()));
            }
        }
        texts.push(out.text);
        match last.split_once(CONTINUES) {
            Some((_, after)) => args = json!({ "after": after }),
            None => {
                assert!(last.ends_with(END), "{last}");
                break;
            }
        }
    }
    (rows, texts)
}

#[test]
fn pages_list_every_file_once_with_its_hash() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("evidence");
    let files = PAGE_FILES * 2 + 123;
    let want = folder(&root, files);
    let src = Arc::new(SourceCtx::open("s", &root).unwrap());
    let (rows, texts) = pages(&src);
    assert_eq!(texts.len(), 3);
    assert!(
        texts[0].starts_with(&format!("{TOTAL_PREFIX}/: {files} files, 0 deleted\n")),
        "{}",
        &texts[0][..200]
    );
    assert!(!texts[1].starts_with(TOTAL_PREFIX));
    assert!(texts[0].ends_with(&format!(
        "# {PAGE_FILES}{CONTINUES}{}\n",
        rows[PAGE_FILES - 1].0
    )));
    assert!(texts[2].ends_with(&format!("# 123{END}\n")));
    // Every file once, each with its content's SHA-256.
    assert_eq!(rows.len(), files);
    let got: BTreeMap<String, String> = rows.iter().cloned().collect();
    assert_eq!(got, want);
    // In the walk's order: a directory's files, then its subdirectories, depth first.
    let order: Vec<&str> = rows.iter().map(|(p, _)| p.as_str()).collect();
    let first_sub = order.iter().position(|p| p.starts_with("/a/")).unwrap();
    assert!(
        order[..first_sub]
            .iter()
            .all(|p| p.matches('/').count() == 1)
    );
    assert!(
        order[first_sub..]
            .iter()
            .all(|p| p.matches('/').count() > 1)
    );
    let tops: Vec<&str> = order[first_sub..]
        .iter()
        .map(|p| p.split('/').nth(1).unwrap())
        .collect();
    let mut sorted = tops.clone();
    sorted.sort();
    assert_eq!(tops, sorted, "top-level folders are walked in name order");
}

#[test]
fn a_page_resumes_after_any_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("evidence");
    folder(&root, 60);
    let src = Arc::new(SourceCtx::open("s", &root).unwrap());
    let (all, _) = pages(&src);
    // Resuming after the k-th file lists exactly the files after it.
    for k in [0, 1, 14, 15, 30, 58] {
        let out = run(&src, "inventory", json!({"after": all[k].0}));
        let rest: Vec<String> = out
            .text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("size\t"))
            .map(|l| l.rsplit('\t').next().unwrap().to_string())
            .collect();
        let want: Vec<String> = all[k + 1..].iter().map(|(p, _)| p.clone()).collect();
        assert_eq!(rest, want, "after {}", all[k].0);
    }
    let bad = masf_tools::Catalog::standard()
        .get("inventory")
        .unwrap()
        .run(&src, &json!({"after": "/no/such/file.txt"}));
    assert!(bad.is_err());
}

#[test]
fn the_usb_inventory_lists_deleted_files_without_a_hash() {
    let out = run(&usb(), "inventory", json!({}));
    assert!(
        out.text
            .starts_with(&format!("{TOTAL_PREFIX}/: 6 files, 1 deleted\n")),
        "{}",
        out.text
    );
    let draft = out
        .text
        .lines()
        .find(|l| l.ends_with("\t/Documents/transfer_log_draft.txt"))
        .expect("deleted draft");
    let cols: Vec<&str> = draft.split('\t').collect();
    assert_eq!((cols[1], cols[3]), ("-", "deleted"));
    assert!(cols[4].contains("(local)"), "{draft}");
    assert!(out.text.ends_with(&format!("# 6{END}\n")));
}
